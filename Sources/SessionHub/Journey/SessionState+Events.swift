import PongWire

extension SessionState {
    /// `POST /sessions/{code}/join` by `user`; `playerId` and `resumeToken` are fresh random values from the
    /// caller, used only for a new seat. A user who has a seat gets it back. The new seat waits for its first
    /// socket for the grace period.
    package mutating func join(user: UserID, displayName: String?, photoURL: String?, playerId: PlayerID,
                               resumeToken: String, now: ContinuousClock.Instant) throws(APIError) -> JoinOutcome {
        guard phase != .ended else { throw .sessionNotFound }
        if let existing = playerID(of: user), let seat = seats[existing] {
            return JoinOutcome(playerId: existing, resumeToken: seat.resumeToken, actions: [])
        }
        guard phase == .waiting else { throw .gameInProgress }
        guard seats.count < configuration.maxPlayers else { throw .sessionFull }
        guard seats[playerId] == nil else { throw .internal }
        lastActivity = now
        let deadline = now + configuration.gracePeriod
        let journey = PlayerJourney(displayName: displayName, photoURL: photoURL, awaitingUntil: deadline,
                                    policy: configuration.readiness)
        seats[playerId] = Seat(userId: user, resumeToken: resumeToken, journey: journey, connection: nil)
        seatOrder.append(playerId)
        return JoinOutcome(playerId: playerId, resumeToken: resumeToken, actions: arm(deadline) + [.broadcastLobby])
    }

    /// `POST /users/profile` by `user` reached this session: the seat's and/or the host's name and photo change.
    package mutating func profileUpdated(user: UserID, displayName: String?, photoURL: String?,
                                         now: ContinuousClock.Instant) -> [Action] {
        guard phase != .ended else { return [] }
        lastActivity = now
        var actions: [Action] = []
        if user == host.userId, let displayName, displayName != host.name {
            host.name = displayName
            actions.append(.broadcastLobby)
        }
        if let player = playerID(of: user) {
            let journeyActions = seats[player]?.journey.profileUpdated(
                displayName: displayName, photoURL: photoURL, now: now) ?? []
            actions += route(journeyActions, for: player)
        }
        return Self.deduplicated(actions)
    }

    /// `POST /streams/start` by `user` with its body (a track left out is the "without video/audio" choice).
    package mutating func streamStarted(user: UserID, request: StreamStartRequest,
                                        now: ContinuousClock.Instant) throws(APIError) -> [Action] {
        guard phase != .ended else { throw .sessionNotFound }
        guard let player = playerID(of: user), var seat = seats[player] else { throw .notJoined }
        let actions = try seat.journey.streamStarted(request, now: now)
        lastActivity = now
        seats[player] = seat
        return route(actions, for: player)
    }

    /// The ingest saw one of the player's tracks change state.
    package mutating func mediaChanged(_ player: PlayerID, _ kind: MediaKind, to state: MediaState,
                                       now: ContinuousClock.Instant) -> [Action] {
        guard phase != .ended else { return [] }
        lastActivity = now
        return route(seats[player]?.journey.mediaChanged(kind, to: state, now: now) ?? [], for: player)
    }

    /// The stream monitor graded this player's media upload rate.
    package mutating func mediaRateGraded(_ player: PlayerID, _ grade: ConnectionGrade?) -> [Action] {
        guard phase != .ended else { return [] }
        return route(seats[player]?.journey.mediaRateGraded(grade) ?? [], for: player)
    }

    /// The prober finished this player's connection test.
    package mutating func connectionTestCompleted(_ player: PlayerID, _ result: ConnectionTestResult,
                                                  now: ContinuousClock.Instant) -> [Action] {
        guard phase != .ended else { return [] }
        lastActivity = now
        return route(seats[player]?.journey.connectionTestCompleted(result, now: now) ?? [], for: player)
    }

    /// The prober could not finish this player's connection test.
    package mutating func connectionTestFailed(_ player: PlayerID, _ failure: ConnectionTestFailure,
                                               now: ContinuousClock.Instant) -> [Action] {
        guard phase != .ended else { return [] }
        return route(seats[player]?.journey.connectionTestFailed(failure, now: now) ?? [], for: player)
    }

    /// Media or other traffic the machine does not see otherwise: keeps the session from idling out.
    package mutating func activity(now: ContinuousClock.Instant) {
        lastActivity = max(lastActivity, now)
    }

    /// `POST /sessions/{code}/start` by `user`: only the host, only while waiting, with enough ready players.
    package mutating func start(by user: UserID, now: ContinuousClock.Instant) throws(APIError) -> [Action] {
        guard phase != .ended else { throw .sessionNotFound }
        guard user == host.userId else { throw .notHost }
        guard phase == .waiting else { throw .gameInProgress }
        guard readyPlayerCount >= configuration.minReadyPlayersToStart else { throw .notEnoughReadyPlayers }
        lastActivity = now
        phase = .playing
        return [.broadcastLobby]
    }

    /// `POST /sessions/{code}/end` by `user`: only the host. Everyone gets `sessionEnded {reason: "hostEnded"}` and
    /// close code 4000.
    package mutating func end(by user: UserID, now: ContinuousClock.Instant) throws(APIError) -> [Action] {
        guard phase != .ended else { throw .sessionNotFound }
        guard user == host.userId else { throw .notHost }
        lastActivity = now
        return finish(.hostEnded)
    }
}
