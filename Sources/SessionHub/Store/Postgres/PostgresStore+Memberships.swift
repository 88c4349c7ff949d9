#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PostgresNIO
import PongWire

extension PostgresStore {
    package func createMembership(_ membership: StoredMembership) throws(StoreError) {
        let code = membership.sessionCode
        try write { transaction throws(StoreError) in
            // FOR SHARE: the session cannot end between this check and the insert.
            let state = try transaction.one("SELECT state FROM session WHERE code = \(code.value) FOR SHARE") {
                row throws(StoreError) in try row.value("state", as: String.self)
            }
            if state == SessionPhase.ended.rawValue {
                throw StoreError.invalidState.with(detail: "session \(code) has ended")
            }
            try transaction.run("""
                INSERT INTO membership (\(unescaped: StoredMembership.columns)) VALUES (\(membership.playerId.rawValue),
                    \(code.value), \(membership.userId.rawValue), \(membership.resumeToken),
                    \(membership.journey)::json, \(StoreTime.milliseconds(membership.joinedAt)),
                    \(membership.leftAt.map(StoreTime.milliseconds)))
                """)
        }
    }

    package func memberships(sessionCode: SessionCode) throws(StoreError) -> [StoredMembership] {
        try all("""
            SELECT \(unescaped: StoredMembership.columns) FROM membership WHERE sessionCode = \(sessionCode.value)
            ORDER BY joinedAt, playerId
            """, as: StoredMembership.init(postgres:))
    }

    package func membership(resumeToken: String) throws(StoreError) -> StoredMembership? {
        try one("SELECT \(unescaped: StoredMembership.columns) FROM membership WHERE resumeToken = \(resumeToken)",
                as: StoredMembership.init(postgres:))
    }

    package func membership(playerId: PlayerID) throws(StoreError) -> StoredMembership? {
        try one("""
            SELECT \(unescaped: StoredMembership.columns) FROM membership WHERE playerId = \(playerId.rawValue)
            """, as: StoredMembership.init(postgres:))
    }

    package func updateJourney(playerId: PlayerID, json: String) throws(StoreError) {
        try write { transaction throws(StoreError) in
            let changed = try transaction.changes(
                "UPDATE membership SET journey = \(json)::json WHERE playerId = \(playerId.rawValue)")
            guard changed > 0 else { throw StoreError.notFound.with(detail: "player \(playerId)") }
        }
    }

    package func markLeft(playerId: PlayerID, at: Date) throws(StoreError) {
        try write { transaction throws(StoreError) in
            let changed = try transaction.changes("""
                UPDATE membership SET leftAt = COALESCE(leftAt, \(StoreTime.milliseconds(at)))
                WHERE playerId = \(playerId.rawValue)
                """)
            guard changed > 0 else { throw StoreError.notFound.with(detail: "player \(playerId)") }
        }
    }
}
