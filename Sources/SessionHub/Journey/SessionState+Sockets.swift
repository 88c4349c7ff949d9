import PongWire

extension SessionState {
    /// A player socket opened for `user` (the transport checked its token). It must say `hello` next, within the
    /// hello timeout of `opened` (when the socket opened, if it waited for its session to be found; else `now`).
    package mutating func socketOpened(_ socket: ConnectionID, user: UserID, now: ContinuousClock.Instant,
                                       opened: ContinuousClock.Instant? = nil) -> [Action] {
        guard phase != .ended else { return [.close(socket, .sessionEnded)] }
        guard let player = playerID(of: user) else {
            return [.send(to: socket, .error(.notJoined)), .close(socket, .notJoined)]
        }
        lastActivity = now
        sockets[socket] = .player(player, greeted: false)
        let deadline = (opened ?? now) + configuration.helloTimeout
        helloDeadlines[socket] = deadline
        return arm(deadline)
    }

    /// A dashboard socket opened with a host token for `user`; only the session's creator gets `welcome {lobby}`.
    package mutating func dashboardOpened(_ socket: ConnectionID, user: UserID,
                                          now: ContinuousClock.Instant) -> [Action] {
        guard phase != .ended else { return [.close(socket, .sessionEnded)] }
        guard user == host.userId else { return [.send(to: socket, .error(.notHost)), .close(socket, .authFailed)] }
        lastActivity = now
        sockets[socket] = .dashboard
        return [.send(to: socket, .welcome(Welcome(lobby: lobby)))]
    }

    /// A decoded text frame from a socket.
    package mutating func received(_ message: ClientMessage, on socket: ConnectionID,
                                   now: ContinuousClock.Instant) -> [Action] {
        guard phase != .ended, let kind = sockets[socket] else { return [] }
        lastActivity = now
        switch kind {
        case .dashboard:
            return [.send(to: socket, .error(.dashboardReadOnly))]
        case .player(let player, greeted: false):
            guard case .hello(let hello) = message else {
                return [.send(to: socket, .error(.outOfOrder("Send hello first")))]
            }
            return greet(socket, player: player, hello: hello, now: now)
        case .player(let player, greeted: true):
            switch message {
            case .hello:
                return [.send(to: socket, .error(.outOfOrder("hello was already received on this connection")))]
            case .leave:
                return freeSeat(player, closing: .left)
            default:
                let actions = seats[player]?.journey.received(message, now: now) ?? []
                return route(actions, for: player)
            }
        }
    }

    /// A socket closed (either side). A seat's current socket leaves the seat reconnecting for the grace period.
    package mutating func socketClosed(_ socket: ConnectionID, now: ContinuousClock.Instant) -> [Action] {
        helloDeadlines[socket] = nil
        guard let kind = sockets.removeValue(forKey: socket) else { return [] }
        guard case .player(let player, greeted: true) = kind, seats[player]?.connection == socket else { return [] }
        lastActivity = now
        seats[player]?.connection = nil
        let grace = configuration.gracePeriod
        let actions = seats[player]?.journey.disconnected(now: now, grace: grace) ?? []
        return route(actions, for: player)
    }

    private mutating func greet(_ socket: ConnectionID, player: PlayerID, hello: ClientMessage.Hello,
                                now: ContinuousClock.Instant) -> [Action] {
        helloDeadlines[socket] = nil
        guard let seat = seats[player] else {
            sockets[socket] = nil
            return [.send(to: socket, .error(.notJoined)), .close(socket, .notJoined)]
        }
        if let token = hello.resumeToken {
            guard Self.constantTimeEqual(token, seat.resumeToken) else {
                sockets[socket] = nil
                return [.send(to: socket, .error(.invalidResumeToken)), .close(socket, .authFailed)]
            }
        } else {
            seats[player]?.journey = seat.journey.restarted()
        }
        var actions: [Action] = []
        if let previous = seat.connection, previous != socket {
            sockets[previous] = nil
            actions.append(.close(previous, .replaced))
        }
        seats[player]?.connection = socket
        sockets[socket] = .player(player, greeted: true)
        let journeyActions = seats[player]?.journey.connected(now: now) ?? []
        actions.append(.send(to: socket, .welcome(Welcome(playerId: player, resumeToken: seat.resumeToken,
                                                          lobby: lobby))))
        return Self.deduplicated(actions + route(journeyActions, for: player) + [.broadcastLobby])
    }

    /// Compares secrets in time independent of where they differ.
    static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
