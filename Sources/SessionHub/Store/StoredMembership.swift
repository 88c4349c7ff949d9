#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import PongWire

/// A row of `membership`: one seat in a session, with what a restart needs to restore it.
package struct StoredMembership: Hashable, Sendable {
    /// Primary key: the seat.
    package var playerId: PlayerID
    /// The session.
    package var sessionCode: SessionCode
    /// Who sits there.
    package var userId: UserID
    /// The seat's resume token (unique across all seats).
    package var resumeToken: String
    /// The player's journey state as a JSON object, written by its owner and handed back as is.
    package var journey: String
    /// Join time (milliseconds).
    package var joinedAt: Date
    /// When the seat was left or freed; nil while it is held.
    package var leftAt: Date?

    package init(playerId: PlayerID, sessionCode: SessionCode, userId: UserID, resumeToken: String,
                 journey: String = "{}", joinedAt: Date, leftAt: Date? = nil) {
        self.playerId = playerId
        self.sessionCode = sessionCode
        self.userId = userId
        self.resumeToken = resumeToken
        self.journey = journey
        self.joinedAt = StoreTime.rounded(joinedAt)
        self.leftAt = leftAt.map(StoreTime.rounded)
    }

    /// The seat is still held (not left).
    package var isHeld: Bool { leftAt == nil }
}

extension StoredMembership {
    static let columns = "playerId, sessionCode, userId, resumeToken, journey, joinedAt, leftAt"

    init(row: Row) throws(StoreError) {
        playerId = PlayerID(try row.value("playerId"))
        sessionCode = try row.sessionCode("sessionCode")
        userId = UserID(try row.value("userId"))
        resumeToken = try row.value("resumeToken")
        journey = try row.value("journey")
        joinedAt = try row.date("joinedAt")
        leftAt = try row.optionalDate("leftAt")
    }

    var arguments: StatementArguments {
        [playerId.rawValue, sessionCode.value, userId.rawValue, resumeToken, journey,
         StoreTime.milliseconds(joinedAt), leftAt.map(StoreTime.milliseconds)]
    }
}
