import PongWire

extension SessionState {
    /// The session's timer fired (or the owner checks early): end an idle session, free seats whose grace period
    /// is over, close sockets that did not say `hello` in time (4005), and re-arm the timer at the next deadline.
    package mutating func tick(now: ContinuousClock.Instant) -> [Action] {
        guard phase != .ended else { return [] }
        armedTimer = nil
        if now >= lastActivity + configuration.idleTimeout { return finish(.idleExpired) }
        var actions: [Action] = []
        for player in seatOrder where seats[player]?.journey.graceExpired(now: now) == true {
            actions += freeSeat(player, closing: nil)
        }
        for (socket, deadline) in helloDeadlines.sorted(by: { $0.key < $1.key }) where now >= deadline {
            helloDeadlines[socket] = nil
            sockets[socket] = nil
            actions.append(.close(socket, .helloTimeout))
        }
        return Self.deduplicated(actions + arm(nextDeadline))
    }

    /// The earliest instant something is due: the idle deadline or a seat's grace deadline.
    package var nextDeadline: ContinuousClock.Instant {
        let graces = seats.values.compactMap { $0.journey.graceDeadline }
        return ([lastActivity + configuration.idleTimeout] + graces + helloDeadlines.values).min() ?? lastActivity
    }

    /// `.scheduleTimer` if `deadline` comes before the armed one (a timer firing early only re-arms).
    mutating func arm(_ deadline: ContinuousClock.Instant) -> [Action] {
        if let armedTimer, armedTimer <= deadline { return [] }
        armedTimer = deadline
        return [.scheduleTimer(at: deadline)]
    }

    /// The journey's actions as session actions: sends go to the seat's socket (dropped without one).
    mutating func route(_ actions: [PlayerJourney.Action], for player: PlayerID) -> [Action] {
        let socket = seats[player]?.connection
        var routed: [Action] = []
        for action in actions {
            switch action {
            case .send(let message):
                if let socket { routed.append(.send(to: socket, message)) }
            case .broadcastLobby: routed.append(.broadcastLobby)
            case .startConnectionTest: routed.append(.startConnectionTest(player))
            case .cancelConnectionTest: routed.append(.cancelConnectionTest(player))
            case .forwardProbePong(let stamp, let receivedAt):
                routed.append(.probePong(player, stamp, receivedAt: receivedAt))
            case .scheduleTimer(let deadline): routed += arm(deadline)
            case .setAudioPreSkip(let frames): routed.append(.setAudioPreSkip(player, frames))
            }
        }
        return Self.deduplicated(routed)
    }

    /// Removes a seat; its socket, if any, is closed with `code`.
    mutating func freeSeat(_ player: PlayerID, closing code: CloseCode?) -> [Action] {
        guard let seat = seats.removeValue(forKey: player) else { return [] }
        seatOrder.removeAll { $0 == player }
        var actions: [Action] = []
        if let socket = seat.connection {
            sockets[socket] = nil
            if let code { actions.append(.close(socket, code)) }
        }
        if seat.journey.testRunning { actions.append(.cancelConnectionTest(player)) }
        return actions + [.seatFreed(player), .broadcastLobby]
    }

    /// Ends the session: the final lobby (state `ended`) and `sessionEnded` to the lobby's audience, close 4000 to
    /// every socket, then `.discardSession`.
    mutating func finish(_ reason: SessionEndReason) -> [Action] {
        phase = .ended
        let audience = lobbyAudience
        let everySocket = sockets.keys.sorted()
        let finalLobby = lobbyMessage
        sockets.removeAll()
        helloDeadlines.removeAll()
        armedTimer = nil
        let ended = ServerMessage.sessionEnded(SessionEnded(reason: reason))
        return audience.flatMap { [Action.send(to: $0, finalLobby), .send(to: $0, ended)] }
            + everySocket.map { .close($0, .sessionEnded) } + [.discardSession]
    }

    /// One `.broadcastLobby` per event, at its last position.
    static func deduplicated(_ actions: [Action]) -> [Action] {
        guard let last = actions.lastIndex(of: .broadcastLobby) else { return actions }
        return actions.enumerated().compactMap { index, action in
            action == .broadcastLobby && index != last ? nil : action
        }
    }
}
