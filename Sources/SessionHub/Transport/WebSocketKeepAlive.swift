/// The server's pings on one WebSocket (docs/SECURITY.md, "Timeouts"): `pingInterval` after the socket opened or its
/// last pong, a ping carrying a counter; no matching pong within `pongTimeout` and the socket is dead (closed like a
/// dropped one, so its seat becomes reconnecting). Pure: the caller passes `now` and arms one timer.
struct WebSocketKeepAlive: Equatable {
    /// What the caller does.
    enum Action: Equatable {
        /// Send a ping whose payload is `id` (8 bytes, big-endian).
        case ping(id: UInt64)
        /// Arm the timer for this instant (replacing any armed one).
        case schedule(ContinuousClock.Instant)
        /// No pong came in time: close the socket.
        case close
    }

    private enum State: Equatable {
        case waiting(pingAt: ContinuousClock.Instant)
        case awaitingPong(id: UInt64, deadline: ContinuousClock.Instant)
    }

    private let pingInterval: Duration
    private let pongTimeout: Duration
    private var state: State
    private var lastID: UInt64 = 0

    init(pingInterval: Duration, pongTimeout: Duration, now: ContinuousClock.Instant) {
        self.pingInterval = pingInterval
        self.pongTimeout = pongTimeout
        state = .waiting(pingAt: now + pingInterval)
    }

    /// When the timer should first fire.
    var deadline: ContinuousClock.Instant {
        switch state {
        case .waiting(let pingAt): pingAt
        case .awaitingPong(_, let deadline): deadline
        }
    }

    /// The timer fired (possibly early).
    mutating func timerFired(now: ContinuousClock.Instant) -> [Action] {
        switch state {
        case .waiting(let pingAt):
            guard now >= pingAt else { return [.schedule(pingAt)] }
            lastID += 1
            let deadline = now + pongTimeout
            state = .awaitingPong(id: lastID, deadline: deadline)
            return [.ping(id: lastID), .schedule(deadline)]
        case .awaitingPong(_, let deadline):
            return now >= deadline ? [.close] : [.schedule(deadline)]
        }
    }

    /// A pong arrived with `id` as its payload (nil when the payload is not 8 bytes): the awaited one re-arms the
    /// ping; any other is ignored (RFC 6455 allows unsolicited pongs).
    mutating func pongReceived(id: UInt64?, now: ContinuousClock.Instant) -> [Action] {
        guard case .awaitingPong(let expected, _) = state, id == expected else { return [] }
        state = .waiting(pingAt: now + pingInterval)
        return [.schedule(now + pingInterval)]
    }
}
