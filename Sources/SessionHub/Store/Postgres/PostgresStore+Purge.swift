#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PostgresNIO
import PongWire

extension PostgresStore {
    @discardableResult
    package func purgeGuestData(sessionCode: SessionCode) throws(StoreError) -> [UserID] {
        let code = sessionCode.value
        let ids = try write { transaction throws(StoreError) in
            let state = try transaction.one("SELECT state FROM session WHERE code = \(code)") {
                row throws(StoreError) in try row.value("state", as: String.self)
            }
            guard let state else { throw StoreError.notFound.with(detail: "session \(sessionCode)") }
            guard state == SessionPhase.ended.rawValue else {
                throw StoreError.invalidState.with(detail: "session \(sessionCode) is \(state)")
            }
            return try transaction.all("""
                DELETE FROM "user" WHERE id IN (
                    SELECT u.id FROM "user" u
                    WHERE u.isGuest
                      AND (u.id IN (SELECT userId FROM membership WHERE sessionCode = \(code))
                           OR u.id IN (SELECT hostUserId FROM session WHERE code = \(code)))
                      AND NOT EXISTS (SELECT 1 FROM membership m JOIN session s ON s.code = m.sessionCode
                                      WHERE m.userId = u.id AND s.state != 'ended')
                      AND NOT EXISTS (SELECT 1 FROM session s WHERE s.hostUserId = u.id AND s.state != 'ended'))
                RETURNING id
                """) { row throws(StoreError) in try row.value("id", as: String.self) }
        }
        return ids.sorted().map(UserID.init)
    }

    @discardableResult
    package func purgeUnjoinedGuests(createdBefore cutoff: Date, limit: Int) throws(StoreError) -> [UserID] {
        let ids = try write { transaction throws(StoreError) in
            let ids = try transaction.all("""
                SELECT u.id FROM "user" u
                WHERE u.isGuest AND u.createdAt < \(StoreTime.milliseconds(cutoff))
                  AND NOT EXISTS (SELECT 1 FROM membership m JOIN session s ON s.code = m.sessionCode
                                  WHERE m.userId = u.id AND s.state != 'ended')
                  AND NOT EXISTS (SELECT 1 FROM session s WHERE s.hostUserId = u.id AND s.state != 'ended')
                ORDER BY u.createdAt, u.id
                LIMIT \(Int64(max(1, limit)))
                """) { row throws(StoreError) in try row.value("id", as: String.self) }
            for id in ids { try transaction.run("DELETE FROM \"user\" WHERE id = \(id)") }
            return ids
        }
        return ids.map(UserID.init)
    }
}
