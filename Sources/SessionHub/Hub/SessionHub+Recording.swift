import Foundation
import Logging
import PongWire

/// How live sessions' changes reach the store: each session's on its own queue, in order, before they are
/// acknowledged; what the store could not take is held (`HeldWrites`) and written before anything later.
extension SessionHub {
    /// The session's `SessionRecorder`.
    func recorder(for code: SessionCode) -> SessionRecorder {
        SessionRecorder(
            write: { [weak self] change in self?.write(change, of: code) ?? true },
            holding: { [weak self] holding in
                self?.sessionsHoldingWrites.withLockedValue { codes in
                    if holding { codes.insert(code) } else { codes.remove(code) }
                }
            },
            now: configuration.wallClock,
            activityInterval: SessionRecorder.activityInterval(idleTimeout: configuration.session.idleTimeout))
    }

    /// Writes one change of session `code` now, on the caller's queue (the session's: its changes stay in order).
    /// False when the store could not take it, so it is held: the store is known to be out of reach (several nodes:
    /// nothing is tried, and no session waits on a connect timeout), or the write failed with `.io`. Other errors
    /// are logged and the change counts as done (writing it again would fail again).
    func write(_ change: SessionWrite, of code: SessionCode) -> Bool {
        if let cluster, !cluster.storeReachable { return false }
        do throws(StoreError) {
            switch change {
            case .phase(let phase, let at):
                try store.updateSessionState(code: code, to: phase, at: at)
            case .seatFreed(let player, let at):
                try store.markLeft(playerId: player, at: at)
            case .journey(let player, let snapshot):
                guard let data = try? JSONEncoder().encode(snapshot) else { return true }
                try store.updateJourney(playerId: player, json: String(decoding: data, as: UTF8.self))
            case .activity(let at):
                try store.touchSession(code: code, at: at)
            }
            return true
        } catch {
            logger.error("cannot store a session's change", metadata: [
                "session.code": "\(code)", "change": "\(change.kind)", "error": "\(error)",
                "held": "\(error == .io)",
            ])
            return error != .io
        }
    }

    /// Writes what sessions hold for the store: live sessions' on their own queues, ended sessions' here (then
    /// their guests are purged). Called at each periodic check while the store answers, and by `flushWrites`.
    func retryHeldWrites() {
        for code in sessionsHoldingWrites.withLockedValue({ $0 }) { session(code)?.retryHeldWrites() }
        let ended = endedSessionWrites.withLockedValue { writes in
            defer { writes = [:] }
            return writes
        }
        for (code, var writes) in ended {
            if writes.flush({ write($0, of: code) }) {
                purgeGuests(of: code)
            } else {
                endedSessionWrites.withLockedValue { $0[code] = writes }
            }
        }
    }

    /// Stores a new seat so it survives a restart; call on the session's queue, before the join is answered (it
    /// returns once the seat is written). Throws when the store could not take it: the join must not be answered.
    /// `journey`: the seat's first journey, stored with it (one transaction, where a seat and then its journey would
    /// be two commits; on PostgreSQL each commit waits for the WAL flush).
    func recordSeat(_ outcome: SessionState.JoinOutcome, code: SessionCode, user: UserID,
                    journey: PlayerJourney.Snapshot? = nil) throws(APIError) {
        if let cluster, !cluster.storeReachable { throw .storeUnavailable }
        let json = journey.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
        let membership = StoredMembership(playerId: outcome.playerId, sessionCode: code, userId: user,
                                          resumeToken: outcome.resumeToken, journey: json ?? "{}", joinedAt: Date())
        do throws(StoreError) {
            try store.createMembership(membership)
        } catch {
            logger.error("cannot store a seat", metadata: ["session.code": "\(code)", "error": "\(error)"])
            throw apiError(for: error)
        }
        quotas.userSessions.withLockedValue { $0.add(member: user, of: code) }
    }
}

extension SessionHub {
    /// What a client is told of a store failure: on PostgreSQL an unreachable server is 503 `store_unavailable` (the
    /// call may be tried again); anything else is 500 `internal` (details are logged, not sent).
    func apiError(for error: StoreError) -> APIError {
        error == .io && cluster != nil ? .storeUnavailable : .internal
    }
}

extension SessionWrite {
    /// The change's kind, for logs.
    var kind: String {
        switch self {
        case .phase: "phase"
        case .seatFreed: "seatFreed"
        case .journey: "journey"
        case .activity: "activity"
        }
    }
}
