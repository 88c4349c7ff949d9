import Foundation
import PongWire

/// Bringing a live session back after a restart, from what the store kept.
extension SessionState {
    /// Each seat's durable journey now, to store when it changed.
    package func journeySnapshots(now: ContinuousClock.Instant, wallNow: Date) -> [PlayerID: PlayerJourney.Snapshot] {
        seats.mapValues { $0.journey.snapshot(now: now, wallNow: wallNow) }
    }

    /// A seat as stored: who holds it, its resume token and the profile shown in the lobby.
    package struct StoredSeat: Hashable, Sendable {
        package var playerId: PlayerID
        package var userId: UserID
        package var resumeToken: String
        package var displayName: String?
        package var photoURL: String?
        /// The journey as last stored, if any (else it restarts after the profile step).
        package var journey: PlayerJourney.Snapshot?

        package init(playerId: PlayerID, userId: UserID, resumeToken: String, displayName: String?,
                     photoURL: String?, journey: PlayerJourney.Snapshot? = nil) {
            self.playerId = playerId
            self.userId = userId
            self.resumeToken = resumeToken
            self.displayName = displayName
            self.photoURL = photoURL
            self.journey = journey
        }
    }

    /// The session as it stood before a restart: its seats come back `reconnecting` for a grace period, so each
    /// phone resumes its seat with `hello {resumeToken}` where its stored journey left off (see
    /// `PlayerJourney.init(restoring:)`); seats nobody resumes are freed when the grace period ends.
    package static func restore(code: SessionCode, host: Host, game: GameSettings, phase: SessionPhase,
                                seats stored: [StoredSeat], now: ContinuousClock.Instant, wallNow: Date = Date(),
                                configuration: Configuration = Configuration()) -> (SessionState, [Action]) {
        var (state, actions) = create(code: code, host: host, game: game, now: now, configuration: configuration)
        state.phase = phase == .ended ? .waiting : phase
        let deadline = now + configuration.gracePeriod
        for seat in stored.prefix(configuration.maxPlayers) where state.seats[seat.playerId] == nil {
            var journey = PlayerJourney(displayName: seat.displayName, photoURL: seat.photoURL,
                                        awaitingUntil: deadline, policy: configuration.readiness)
            if var snapshot = seat.journey {
                snapshot.displayName = seat.displayName ?? snapshot.displayName
                snapshot.photoURL = seat.photoURL ?? snapshot.photoURL
                journey = PlayerJourney(restoring: snapshot, awaitingUntil: deadline, policy: configuration.readiness,
                                        now: now, wallNow: wallNow)
            }
            state.seats[seat.playerId] = Seat(userId: seat.userId, resumeToken: seat.resumeToken, journey: journey,
                                              connection: nil)
            state.seatOrder.append(seat.playerId)
        }
        if !state.seats.isEmpty { actions += state.arm(deadline) }
        return (state, actions)
    }
}
