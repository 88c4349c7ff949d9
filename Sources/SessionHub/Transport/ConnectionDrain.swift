/// A listener's connections through a graceful shutdown, the way swift-nio-extras' `ServerQuiescingHelper` does it:
/// open connections are tracked; on shutdown each is asked to quiesce (an HTTP connection finishes the request in
/// flight and closes, a WebSocket sends close 4100 and drains), and so is one accepted meanwhile; those still open at
/// the deadline are closed; the drain is over once none is left. Pure: the caller keeps it under a lock, passes
/// `now` and performs the actions (`HTTPServer+Drain.swift`).
struct ConnectionDrain: Sendable, Equatable {
    /// What the caller does.
    enum Action: Equatable {
        /// Ask these connections to finish and close (`ChannelShouldQuiesceEvent`).
        case quiesce([UInt64])
        /// Call `deadlinePassed` at this instant.
        case schedule(ContinuousClock.Instant)
        /// Close these connections now, finished or not.
        case forceClose([UInt64])
        /// No connection is left: the shutdown may go on (flush the store, exit).
        case finished
    }

    private enum Phase: Equatable {
        case serving
        case draining(deadline: ContinuousClock.Instant)
        case forcing
        case finished
    }

    private var phase = Phase.serving
    /// The connections open now.
    private(set) var open: Set<UInt64> = []

    /// A connection was accepted (and its pipeline set up).
    mutating func opened(_ id: UInt64) -> [Action] {
        open.insert(id)
        switch phase {
        case .serving: return []
        case .draining: return [.quiesce([id])]
        case .forcing, .finished: return [.forceClose([id])]
        }
    }

    /// A connection closed.
    mutating func closed(_ id: UInt64) -> [Action] {
        guard open.remove(id) != nil else { return [] }
        switch phase {
        case .draining, .forcing:
            guard open.isEmpty else { return [] }
            phase = .finished
            return [.finished]
        case .serving, .finished:
            return []
        }
    }

    /// Shutdown began (the listener is closed): every open connection has `timeout` to close.
    mutating func shutdown(now: ContinuousClock.Instant, timeout: Duration) -> [Action] {
        guard phase == .serving else { return [] }
        guard !open.isEmpty else {
            phase = .finished
            return [.finished]
        }
        let deadline = now + timeout
        phase = .draining(deadline: deadline)
        return [.quiesce(open.sorted()), .schedule(deadline)]
    }

    /// The timer armed by `.schedule` fired (possibly early): past the deadline, the rest are closed.
    mutating func deadlinePassed(now: ContinuousClock.Instant) -> [Action] {
        guard case .draining(let deadline) = phase else { return [] }
        guard now >= deadline else { return [.schedule(deadline)] }
        phase = .forcing
        return [.forceClose(open.sorted())]
    }

    /// How much of a drain timeout the connections get: the rest (a fifth, at most 1 s) is kept for closing the
    /// stragglers and flushing the store, so the process exits within the timeout.
    static func connectionBudget(of timeout: Duration) -> Duration {
        timeout - min(.seconds(1), timeout / 5)
    }
}
