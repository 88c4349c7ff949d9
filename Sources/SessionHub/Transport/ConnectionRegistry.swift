import Logging
import NIOConcurrencyHelpers
import NIOCore

/// A listener's open connections and their `ConnectionDrain` under one lock; performs the drain's actions: fires
/// `ChannelShouldQuiesceEvent` (NIO's HTTP pipeline finishes the request in flight, answers it with
/// `Connection: close` and closes; `WebSocketHandler` sends close 4100 and drains), closes the stragglers at the
/// deadline, and completes `drain` once none is left.
final class ConnectionRegistry: Sendable {
    private struct State {
        var drain = ConnectionDrain()
        var channels: [UInt64: any Channel] = [:]
        var nextID: UInt64 = 0
        var finished: EventLoopPromise<Void>?
        var loop: (any EventLoop)?
    }

    private let state = NIOLockedValueBox(State())
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// Tracks an accepted connection (its pipeline set up) until it closes; one accepted during a drain is asked
    /// to quiesce at once.
    func track(_ channel: any Channel) {
        let (id, actions) = state.withLockedValue { state in
            state.nextID += 1
            state.channels[state.nextID] = channel
            return (state.nextID, state.drain.opened(state.nextID))
        }
        channel.closeFuture.whenComplete { _ in
            self.perform(self.state.withLockedValue { state in
                state.channels[id] = nil
                return state.drain.closed(id)
            })
        }
        perform(actions)
    }

    /// Asks every open connection to finish and returns once all are closed; those still open `timeout` after the
    /// call are closed then.
    func drain(timeout: Duration, on loop: any EventLoop) async {
        let promise = loop.makePromise(of: Void.self)
        let (count, actions) = state.withLockedValue { state in
            state.finished = promise
            state.loop = loop
            return (state.channels.count, state.drain.shutdown(now: .now, timeout: timeout))
        }
        logger.info("draining connections", metadata: ["connections": "\(count)", "drain.timeout": "\(timeout)"])
        perform(actions)
        try? await promise.futureResult.get()
    }

    private func channels(_ ids: [UInt64]) -> [any Channel] {
        state.withLockedValue { state in ids.compactMap { state.channels[$0] } }
    }

    private func perform(_ actions: [ConnectionDrain.Action]) {
        for action in actions {
            switch action {
            case .quiesce(let ids):
                for channel in channels(ids) {
                    channel.eventLoop.execute { channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent()) }
                }
            case .schedule(let deadline):
                guard let loop = state.withLockedValue({ $0.loop }) else { continue }
                let delay = ContinuousClock.now.duration(to: deadline)
                loop.scheduleTask(in: .nanoseconds(max(0, delay.nanoseconds))) {
                    self.perform(self.state.withLockedValue { $0.drain.deadlinePassed(now: .now) })
                }
            case .forceClose(let ids):
                let open = channels(ids)
                if !open.isEmpty { logger.info("drain deadline: closing connections", metadata: ["connections": "\(open.count)"]) }
                for channel in open { channel.close(promise: nil) }
            case .finished:
                state.withLockedValue { $0.finished }?.succeed()
            }
        }
    }
}
