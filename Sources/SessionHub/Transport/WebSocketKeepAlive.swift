/// The server's pings on one WebSocket (docs/SECURITY.md, "Timeouts"): `pingInterval` after the socket opened or its
/// last pong, a ping carrying a counter; if neither the matching pong nor any other frame arrives within
/// `pongTimeout` of the ping (or of the last frame heard since), the socket is dead (closed, so its seat becomes
/// reconnecting). Any frame counts as a sign of life because a phone's pong can queue behind its own upload (media,
/// the connection test's filler) on a slow uplink; a phone that vanished sends nothing at all. Pure: the caller
/// passes `now` and arms one timer.
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
    /// When the last frame (of any kind) arrived.
    private var lastHeard: ContinuousClock.Instant

    init(pingInterval: Duration, pongTimeout: Duration, now: ContinuousClock.Instant) {
        self.pingInterval = pingInterval
        self.pongTimeout = pongTimeout
        state = .waiting(pingAt: now + pingInterval)
        lastHeard = now
    }

    /// When the timer should first fire.
    var deadline: ContinuousClock.Instant {
        switch state {
        case .waiting(let pingAt): pingAt
        case .awaitingPong(_, let deadline): max(deadline, lastHeard + pongTimeout)
        }
    }

    /// A frame of any kind arrived: while a pong is awaited, the socket is alive for `pongTimeout` more. (The armed
    /// timer need not move: when it fires early, `timerFired` arms it again.)
    mutating func heard(now: ContinuousClock.Instant) {
        lastHeard = max(lastHeard, now)
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
        case .awaitingPong:
            let due = deadline
            return now >= due ? [.close] : [.schedule(due)]
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
