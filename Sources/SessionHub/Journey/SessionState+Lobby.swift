import PongWire

extension SessionState {
    /// The snapshot every client sees (`lobby`, `welcome.lobby`, `GET /sessions/{code}`), players in join order.
    package var lobby: LobbySnapshot {
        LobbySnapshot(
            code: code.value, displayCode: code.displayCode, state: phase,
            host: LobbySnapshot.Host(name: host.name), game: game,
            players: seatOrder.compactMap { id in seats[id].map { $0.journey.lobbyEntry(id) } })
    }

    /// The lobby without names, photos or player ids: `GET /sessions/{code}` for anyone but the host and the seated.
    package var lobbySummary: LobbySummary {
        LobbySummary(code: code.value, displayCode: code.displayCode, state: phase, game: game,
                     playerCount: seats.count)
    }

    /// The `lobby` message of `.broadcastLobby`.
    package var lobbyMessage: ServerMessage { .lobby(lobby) }

    /// Sockets a `.broadcastLobby` goes to: every player socket that said hello, and every dashboard, in order.
    package var lobbyAudience: [ConnectionID] {
        sockets.compactMap { id, socket in
            switch socket {
            case .dashboard, .player(_, greeted: true): id
            case .player(_, greeted: false): nil
            }
        }.sorted()
    }

    /// The session's dashboard sockets, in order (they get every player's `stream` report).
    package var dashboards: [ConnectionID] {
        sockets.compactMap { id, socket in
            if case .dashboard = socket { return id }
            return nil
        }.sorted()
    }
}
