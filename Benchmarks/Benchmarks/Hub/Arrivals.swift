import NIOCore

/// Every text message the player sockets receive, per socket, stamped on arrival; and the round being waited for.
///
/// Sockets call `record` on the client's event loop; the driving task arms a round with `next`, which completes
/// once every socket has at least one new message.
final class Arrivals: Sendable {
    /// One received text message and when its frame reached the client's handler.
    struct Message: Sendable {
        var at: ContinuousClock.Instant
        var text: String
    }

    private struct State: Sendable {
        var messages: [[Message]]
        var round: EventLoopPromise<[[Message]]>?
        var last: ContinuousClock.Instant = .now
        var closed: String?
    }

    private let state: Locked<State>

    init(sockets: Int) {
        state = Locked(State(messages: Array(repeating: [], count: sockets)))
    }

    /// A text message for socket `socket`, received at `at`.
    func record(socket: Int, text: String, at: ContinuousClock.Instant) {
        let done: (EventLoopPromise<[[Message]]>, [[Message]])? = state.withLock { state in
            state.messages[socket].append(Message(at: at, text: text))
            state.last = at
            guard let round = state.round, state.messages.allSatisfy({ !$0.isEmpty }) else { return nil }
            state.round = nil
            defer { state.messages = Array(repeating: [], count: state.messages.count) }
            return (round, state.messages)
        }
        if let (round, messages) = done { round.succeed(messages) }
    }

    /// A socket closed: the round (if any) fails, and so does every later one.
    func closed(socket: Int) {
        let round = state.withLock { state in
            state.closed = "socket \(socket) closed"
            defer { state.round = nil }
            return state.round
        }
        round?.fail(BenchError("socket \(socket) closed"))
    }

    /// Drops everything received so far; fails if a socket closed.
    func clear() throws {
        try state.withLock { state in
            if let closed = state.closed { throw BenchError(closed) }
            state.messages = Array(repeating: [], count: state.messages.count)
        }
    }

    /// When the last message arrived.
    var lastArrival: ContinuousClock.Instant {
        state.withLock { $0.last }
    }

    /// Arms the next round: the future completes with each socket's messages once every socket has one, or fails
    /// after `timeout`. Messages still unread from before are an error (something unexpected was sent).
    func next(on loop: any EventLoop, timeout: TimeAmount) throws -> EventLoopFuture<[[Message]]> {
        let round = loop.makePromise(of: [[Message]].self)
        try state.withLock { state in
            if let closed = state.closed { throw BenchError(closed) }
            if let stray = state.messages.joined().first { throw BenchError("unexpected message: \(stray.text)") }
            state.round = round
        }
        let expiry = loop.scheduleTask(in: timeout) {
            let pending = self.state.withLock { state in
                defer { state.round = nil }
                return state.round
            }
            pending?.fail(BenchError("not every socket got a lobby within \(timeout)"))
        }
        round.futureResult.whenComplete { _ in expiry.cancel() }
        return round.futureResult
    }
}
