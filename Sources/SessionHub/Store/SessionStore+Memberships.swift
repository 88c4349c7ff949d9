#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import PongWire

extension SessionStore {
    /// Stores a new seat. Throws `.duplicateKey` for a taken player id or resume token, `.constraint` for an
    /// unknown session or user or a journey that is not JSON, `.invalidState` when the session has ended.
    package func createMembership(_ membership: StoredMembership) throws(StoreError) {
        try write { db in
            let state = try String.fetchOne(db, sql: "SELECT state FROM session WHERE code = ?",
                                            arguments: [membership.sessionCode.value])
            if state == SessionPhase.ended.rawValue {
                throw StoreError.invalidState.with(detail: "session \(membership.sessionCode) has ended")
            }
            try db.execute(sql: "INSERT INTO membership (\(StoredMembership.columns)) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           arguments: membership.arguments)
        }
    }

    /// Every seat of the session, held or left, in join order.
    package func memberships(sessionCode: SessionCode) throws(StoreError) -> [StoredMembership] {
        try fetchAll(sql: """
            SELECT \(StoredMembership.columns) FROM membership WHERE sessionCode = ? ORDER BY joinedAt, playerId
            """, arguments: [sessionCode.value], as: StoredMembership.init(row:))
    }

    /// The seat with this resume token; nil if none.
    package func membership(resumeToken: String) throws(StoreError) -> StoredMembership? {
        try fetchOne(sql: "SELECT \(StoredMembership.columns) FROM membership WHERE resumeToken = ?",
                     arguments: [resumeToken], as: StoredMembership.init(row:))
    }

    /// The seat with this player id; nil if none.
    package func membership(playerId: PlayerID) throws(StoreError) -> StoredMembership? {
        try fetchOne(sql: "SELECT \(StoredMembership.columns) FROM membership WHERE playerId = ?",
                     arguments: [playerId.rawValue], as: StoredMembership.init(row:))
    }

    /// Replaces the seat's journey JSON. Throws `.notFound` for an unknown seat, `.constraint` if `json` is not
    /// JSON.
    package func updateJourney(playerId: PlayerID, json: String) throws(StoreError) {
        try write { db in
            try db.execute(sql: "UPDATE membership SET journey = ? WHERE playerId = ?",
                           arguments: [json, playerId.rawValue])
            guard db.changesCount > 0 else { throw StoreError.notFound.with(detail: "player \(playerId)") }
        }
    }

    /// Marks the seat left at `at` (the first time counts; later calls keep it). `.notFound` for an unknown seat.
    package func markLeft(playerId: PlayerID, at: Date) throws(StoreError) {
        try write { db in
            try db.execute(sql: "UPDATE membership SET leftAt = COALESCE(leftAt, ?) WHERE playerId = ?",
                           arguments: [StoreTime.milliseconds(at), playerId.rawValue])
            guard db.changesCount > 0 else { throw StoreError.notFound.with(detail: "player \(playerId)") }
        }
    }
}
