/// Bringing a live session back after a restart, from what the store kept.
extension SessionState {
    /// A seat as stored: who holds it, its resume token and the profile shown in the lobby.
    package struct StoredSeat: Hashable, Sendable {
        package var playerId: PlayerID
        package var userId: UserID
        package var resumeToken: String
        package var displayName: String?
        package var photoURL: String?

        package init(playerId: PlayerID, userId: UserID, resumeToken: String, displayName: String?,
                     photoURL: String?) {
            self.playerId = playerId
            self.userId = userId
            self.resumeToken = resumeToken
            self.displayName = displayName
            self.photoURL = photoURL
        }
    }

    /// The session as it stood before a restart: its seats come back `reconnecting` for a grace period, so each
    /// phone resumes its seat with `hello {resumeToken}` (its journey restarts after the profile step); seats nobody
    /// resumes are freed when the grace period ends, like any dropped seat.
    package static func restore(code: SessionCode, host: Host, game: GameSettings, phase: SessionPhase,
                                seats stored: [StoredSeat], now: ContinuousClock.Instant,
                                configuration: Configuration = Configuration()) -> (SessionState, [Action]) {
        var (state, actions) = create(code: code, host: host, game: game, now: now, configuration: configuration)
        state.phase = phase == .ended ? .waiting : phase
        let deadline = now + configuration.gracePeriod
        for seat in stored.prefix(configuration.maxPlayers) where state.seats[seat.playerId] == nil {
            let journey = PlayerJourney(displayName: seat.displayName, photoURL: seat.photoURL,
                                        awaitingUntil: deadline, policy: configuration.readiness)
            state.seats[seat.playerId] = Seat(userId: seat.userId, resumeToken: seat.resumeToken, journey: journey,
                                              connection: nil)
            state.seatOrder.append(seat.playerId)
        }
        if !state.seats.isEmpty { actions += state.arm(deadline) }
        return (state, actions)
    }
}
