#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import PongWire

extension SessionStore {
    /// Stores a new session. Throws `.duplicateKey` when a stored session (live or ended) has the code: draw
    /// another; `.constraint` for an unknown host.
    package func createSession(_ session: StoredSession) throws(StoreError) {
        try write { db in
            try db.execute(sql: "INSERT INTO session (\(StoredSession.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           arguments: session.arguments)
        }
    }

    /// The session with this code, live or ended; nil if none.
    package func session(code: SessionCode) throws(StoreError) -> StoredSession? {
        try fetchOne(sql: "SELECT \(StoredSession.columns) FROM session WHERE code = ?", arguments: [code.value],
                     as: StoredSession.init(row:))
    }

    /// Codes of the sessions not ended (waiting or playing), sorted: what a restart brings back.
    package func liveSessionCodes() throws(StoreError) -> [SessionCode] {
        try fetchAll(sql: "SELECT code FROM session WHERE state != 'ended' ORDER BY code", arguments: [],
                     as: { row throws(StoreError) in try row.sessionCode("code") })
    }

    /// Sets the session's state and counts it as activity at `at`; `ended` also sets `endedAt`. Ending an ended
    /// session changes nothing; any other change to an ended session throws `.invalidState`; `.notFound` if none.
    package func updateSessionState(code: SessionCode, to state: SessionPhase, at: Date) throws(StoreError) {
        try write { db in
            guard let current = try String.fetchOne(db, sql: "SELECT state FROM session WHERE code = ?",
                                                    arguments: [code.value]) else {
                throw StoreError.notFound.with(detail: "session \(code)")
            }
            if current == SessionPhase.ended.rawValue {
                guard state == .ended else {
                    throw StoreError.invalidState.with(detail: "session \(code) has ended")
                }
                return
            }
            let time = StoreTime.milliseconds(at)
            try db.execute(sql: """
                UPDATE session SET state = ?, lastActivityAt = MAX(lastActivityAt, ?),
                    endedAt = CASE WHEN ? = 'ended' THEN ? ELSE NULL END
                WHERE code = ?
                """, arguments: [state.rawValue, time, state.rawValue, time, code.value])
        }
    }

    /// Records activity in the session at `at` (a later time only moves `lastActivityAt` forward); `.notFound`
    /// if none.
    package func touchSession(code: SessionCode, at: Date) throws(StoreError) {
        try write { db in
            try db.execute(sql: "UPDATE session SET lastActivityAt = MAX(lastActivityAt, ?) WHERE code = ?",
                           arguments: [StoreTime.milliseconds(at), code.value])
            guard db.changesCount > 0 else { throw StoreError.notFound.with(detail: "session \(code)") }
        }
    }

    /// Ends every live session whose last activity is before `cutoff` (e.g. now − idle timeout), with
    /// `endedAt = now`, and returns their codes, sorted. Their guests are not purged here: call
    /// `purgeGuestData(sessionCode:)` for each.
    package func expireIdleSessions(olderThan cutoff: Date, now: Date) throws(StoreError) -> [SessionCode] {
        let texts = try write { db in
            let codes = try String.fetchAll(db, sql: """
                SELECT code FROM session WHERE state != 'ended' AND lastActivityAt < ? ORDER BY code
                """, arguments: [StoreTime.milliseconds(cutoff)])
            for code in codes {
                try db.execute(sql: "UPDATE session SET state = 'ended', endedAt = ? WHERE code = ?",
                               arguments: [StoreTime.milliseconds(now), code])
            }
            return codes
        }
        var codes: [SessionCode] = []
        for text in texts {
            guard let code = SessionCode(userInput: text) else {
                throw StoreError.corruptData.with(detail: "session code \(text)")
            }
            codes.append(code)
        }
        return codes
    }
}
