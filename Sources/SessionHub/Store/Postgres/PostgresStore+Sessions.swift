#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PostgresNIO
import PongWire

extension PostgresStore {
    package func createSession(_ session: StoredSession) throws(StoreError) {
        try write { transaction throws(StoreError) in
            try transaction.run("""
                INSERT INTO session (\(unescaped: StoredSession.columns), ownerNode) VALUES (\(session.code.value),
                    \(session.hostUserId?.rawValue), \(session.mode.rawValue), \(session.pointsToWin.rawValue),
                    \(session.serveRule?.rawValue), \(session.state.rawValue),
                    \(StoreTime.milliseconds(session.createdAt)), \(StoreTime.milliseconds(session.lastActivityAt)),
                    \(session.endedAt.map(StoreTime.milliseconds)), \(node))
                """)
        }
    }

    package func session(code: SessionCode) throws(StoreError) -> StoredSession? {
        try one("SELECT \(unescaped: StoredSession.columns) FROM session WHERE code = \(code.value)",
                as: StoredSession.init(postgres:))
    }

    package func liveSessionCodes() throws(StoreError) -> [SessionCode] {
        try all("SELECT code FROM session WHERE state != 'ended' ORDER BY code") { row throws(StoreError) in
            try row.sessionCode("code")
        }
    }

    package func updateSessionState(code: SessionCode, to state: SessionPhase, at: Date) throws(StoreError) {
        try write { transaction throws(StoreError) in
            let current = try transaction.one("SELECT state FROM session WHERE code = \(code.value) FOR UPDATE") {
                row throws(StoreError) in try row.value("state", as: String.self)
            }
            guard let current else { throw StoreError.notFound.with(detail: "session \(code)") }
            if current == SessionPhase.ended.rawValue {
                guard state == .ended else { throw StoreError.invalidState.with(detail: "session \(code) has ended") }
                return
            }
            let time = StoreTime.milliseconds(at)
            let endedAt: Int64? = state == .ended ? time : nil
            try transaction.run("""
                UPDATE session SET state = \(state.rawValue), lastActivityAt = GREATEST(lastActivityAt, \(time)),
                    endedAt = \(endedAt)
                WHERE code = \(code.value)
                """)
        }
    }

    package func touchSession(code: SessionCode, at: Date) throws(StoreError) {
        try write { transaction throws(StoreError) in
            let changed = try transaction.changes("""
                UPDATE session SET lastActivityAt = GREATEST(lastActivityAt, \(StoreTime.milliseconds(at)))
                WHERE code = \(code.value)
                """)
            guard changed > 0 else { throw StoreError.notFound.with(detail: "session \(code)") }
        }
    }

    package func expireIdleSessions(olderThan cutoff: Date, now: Date) throws(StoreError) -> [SessionCode] {
        let texts = try write { transaction throws(StoreError) in
            try transaction.all("""
                UPDATE session SET state = 'ended', endedAt = \(StoreTime.milliseconds(now))
                WHERE state != 'ended' AND lastActivityAt < \(StoreTime.milliseconds(cutoff))
                RETURNING code
                """) { row throws(StoreError) in try row.value("code", as: String.self) }
        }
        var codes: [SessionCode] = []
        for text in texts.sorted() {
            guard let code = SessionCode(userInput: text) else {
                throw StoreError.corruptData.with(detail: "session code \(text)")
            }
            codes.append(code)
        }
        return codes
    }
}
