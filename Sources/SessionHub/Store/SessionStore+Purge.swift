import Foundation
import GRDB
import PongWire

extension SessionStore {
    /// After a session ended, deletes every guest of it (a seat holder or its host) who has no seat in, and hosts
    /// no, session that is still live, with their profile, photos, seats in any session and those seats' events:
    /// nothing of a guest is kept after its sessions end. Signed-up users are never touched. Returns the deleted
    /// users, sorted. Throws `.notFound` for an unknown session, `.invalidState` for one not ended.
    @discardableResult
    package func purgeGuestData(sessionCode: SessionCode) throws(StoreError) -> [UserID] {
        let ids = try write { db in
            let state = try String.fetchOne(db, sql: "SELECT state FROM session WHERE code = ?",
                                            arguments: [sessionCode.value])
            guard let state else { throw StoreError.notFound.with(detail: "session \(sessionCode)") }
            guard state == SessionPhase.ended.rawValue else {
                throw StoreError.invalidState.with(detail: "session \(sessionCode) is \(state)")
            }
            let ids = try String.fetchAll(db, sql: """
                SELECT u.id FROM user u
                WHERE u.isGuest = 1
                  AND (u.id IN (SELECT userId FROM membership WHERE sessionCode = :code)
                       OR u.id IN (SELECT hostUserId FROM session WHERE code = :code))
                  AND NOT EXISTS (SELECT 1 FROM membership m JOIN session s ON s.code = m.sessionCode
                                  WHERE m.userId = u.id AND s.state != 'ended')
                  AND NOT EXISTS (SELECT 1 FROM session s WHERE s.hostUserId = u.id AND s.state != 'ended')
                ORDER BY u.id
                """, arguments: ["code": sessionCode.value])
            for id in ids {
                try db.execute(sql: "DELETE FROM user WHERE id = ?", arguments: [id])
            }
            return ids
        }
        return ids.map(UserID.init)
    }

    /// Deletes up to `limit` guests created before `cutoff` that have no seat in, and host no, session that is
    /// still live (never joined one, or every one of theirs ended), with their profile, photos, seats in ended
    /// sessions and those seats' events (as `purgeGuestData`). Signed-up users are never touched. Returns the
    /// deleted users, oldest first; fewer than `limit` means none is left. Uses the (isGuest, createdAt) index.
    @discardableResult
    package func purgeUnjoinedGuests(createdBefore cutoff: Date, limit: Int) throws(StoreError) -> [UserID] {
        let ids = try write { db in
            let ids = try String.fetchAll(db, sql: """
                SELECT u.id FROM user u
                WHERE u.isGuest = 1 AND u.createdAt < :cutoff
                  AND NOT EXISTS (SELECT 1 FROM membership m JOIN session s ON s.code = m.sessionCode
                                  WHERE m.userId = u.id AND s.state != 'ended')
                  AND NOT EXISTS (SELECT 1 FROM session s WHERE s.hostUserId = u.id AND s.state != 'ended')
                ORDER BY u.createdAt, u.id
                LIMIT :limit
                """, arguments: ["cutoff": StoreTime.milliseconds(cutoff), "limit": max(1, limit)])
            for id in ids {
                try db.execute(sql: "DELETE FROM user WHERE id = ?", arguments: [id])
            }
            return ids
        }
        return ids.map(UserID.init)
    }
}
