import Foundation
import PongWire

/// After a restart: every session the store still calls live comes back with its seats, waiting for its phones.
extension SessionHub {
    /// Ends sessions idle past the idle timeout, then restores the rest; returns how many came back.
    @discardableResult
    func restoreLiveSessions() throws(StoreError) -> Int {
        let now = configuration.wallClock()
        let idle = configuration.session.idleTimeout
        let idleSeconds = Double(idle.components.seconds) + Double(idle.components.attoseconds) * 1e-18
        for code in try store.expireIdleSessions(olderThan: now.addingTimeInterval(-idleSeconds), now: now) {
            _ = try? store.purgeGuestData(sessionCode: code)
        }
        var restored = 0
        // On several nodes: only the sessions this node owns (the others' come through the periodic check).
        let codes: [SessionCode]
        if let cluster {
            codes = try cluster.ownership.liveSessions(ownedBy: cluster.id)
        } else {
            codes = try store.liveSessionCodes()
        }
        for code in codes where try restoreSession(code) != nil { restored += 1 }
        if restored > 0 { logger.info("sessions restored", metadata: ["count": "\(restored)"]) }
        return restored
    }

    /// Brings one live session back from the store, with its seats waiting for their phones; nil when it is not
    /// live (or has no host).
    func restoreSession(_ code: SessionCode) throws(StoreError) -> LiveSession? {
        if let live = session(code) { return live }
        guard let stored = try store.session(code: code), stored.state != .ended, let hostId = stored.hostUserId
        else { return nil }
        let profileName = try store.profile(userId: hostId)?.displayName
        let accountName = try store.user(id: hostId)?.name
        let hostName = profileName ?? accountName ?? "Host"
        var seats: [SessionState.StoredSeat] = []
        for membership in try store.memberships(sessionCode: code) where membership.isHeld {
            let profile = try store.profile(userId: membership.userId)
            seats.append(SessionState.StoredSeat(
                playerId: membership.playerId, userId: membership.userId, resumeToken: membership.resumeToken,
                displayName: profile?.displayName, photoURL: profile?.photoId.map { "/photos/\($0)" },
                journey: try? JSONDecoder().decode(PlayerJourney.Snapshot.self, from: Data(membership.journey.utf8))))
        }
        let (state, actions) = SessionState.restore(
            code: code, host: SessionState.Host(userId: hostId, name: hostName), game: stored.game,
            phase: stored.state, seats: seats, now: .now, configuration: configuration.session)
        // Two restores of one code may race (a phone's call and the periodic check): the first in memory wins, and
        // only its decoders are opened.
        let (live, isNew) = adopt(state, initialActions: actions)
        if isNew { live.reopenStreams() }
        return live
    }
}
