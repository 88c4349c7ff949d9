#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import PongWire

// The records read from PostgreSQL rows (the columns in each record's `columns` order and names).

extension StoredUser {
    init(postgres row: PostgresRecord) throws(StoreError) {
        self.init(id: UserID(try row.value("id")), name: try row.value("name"), email: try row.value("email"),
                  passwordHash: try row.value("passwordHash"), isGuest: try row.value("isGuest"),
                  createdAt: try row.date("createdAt"))
    }
}

extension StoredProfile {
    init(postgres row: PostgresRecord) throws(StoreError) {
        self.init(userId: UserID(try row.value("userId")), displayName: try row.value("displayName"),
                  photoId: try row.value("photoId", as: String?.self).map(PhotoID.init),
                  updatedAt: try row.date("updatedAt"))
    }
}

extension StoredPhoto {
    init(postgres row: PostgresRecord) throws(StoreError) {
        var buffer = try row.value("bytes", as: ByteBuffer.self)
        self.init(id: PhotoID(try row.value("id")), userId: UserID(try row.value("userId")),
                  format: try row.enumeration("contentType"),
                  bytes: buffer.readBytes(length: buffer.readableBytes) ?? [], createdAt: try row.date("createdAt"))
    }
}

extension StoredSession {
    init(postgres row: PostgresRecord) throws(StoreError) {
        let rule = try row.value("serveRule", as: String?.self)
        var serveRule: ServeRule?
        if let rule {
            guard let parsed = ServeRule(rawValue: rule) else {
                throw StoreError.corruptData.with(detail: "column serveRule: unknown value \(rule)")
            }
            serveRule = parsed
        }
        self.init(code: try row.sessionCode("code"),
                  hostUserId: try row.value("hostUserId", as: String?.self).map(UserID.init),
                  mode: try row.enumeration("mode"), pointsToWin: try row.enumeration("pointsToWin"),
                  serveRule: serveRule, state: try row.enumeration("state"), createdAt: try row.date("createdAt"),
                  lastActivityAt: try row.date("lastActivityAt"), endedAt: try row.optionalDate("endedAt"))
    }
}

extension StoredMembership {
    init(postgres row: PostgresRecord) throws(StoreError) {
        self.init(playerId: PlayerID(try row.value("playerId")), sessionCode: try row.sessionCode("sessionCode"),
                  userId: UserID(try row.value("userId")), resumeToken: try row.value("resumeToken"),
                  journey: try row.value("journey"), joinedAt: try row.date("joinedAt"),
                  leftAt: try row.optionalDate("leftAt"))
    }
}

extension StoredEvent {
    init(postgres row: PostgresRecord) throws(StoreError) {
        self.init(id: try row.value("id"), sessionCode: try row.sessionCode("sessionCode"),
                  playerId: try row.value("playerId", as: String?.self).map(PlayerID.init),
                  kind: Kind(rawValue: try row.value("type")), payload: try row.value("payload"),
                  at: try row.date("at"))
    }
}
