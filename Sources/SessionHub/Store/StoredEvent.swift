#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import PongWire

/// A row of `event`: something that happened in a session (an impact, a join, a start…), in append order.
package struct StoredEvent: Hashable, Sendable {
    /// What happened (`type` column). Open set: other texts are stored and read back as they are.
    package struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        package var rawValue: String

        package init(rawValue: String) { self.rawValue = rawValue }

        /// A detected ball impact (payload: the `bounce` message's fields).
        package static let bounce = Kind(rawValue: "bounce")
        /// A player took a seat.
        package static let joined = Kind(rawValue: "joined")
        /// A player left or its seat was freed.
        package static let left = Kind(rawValue: "left")
        /// The host started the game.
        package static let started = Kind(rawValue: "started")
        /// The session ended (payload: the reason).
        package static let ended = Kind(rawValue: "ended")

        package var description: String { rawValue }
    }

    /// Autoincremented key, in append order; nil until appended.
    package var id: Int64?
    /// The session.
    package var sessionCode: SessionCode
    /// The seat concerned, if any (a stored membership).
    package var playerId: PlayerID?
    /// What happened.
    package var kind: Kind
    /// Details as a JSON value.
    package var payload: String
    /// When it happened (milliseconds).
    package var at: Date

    package init(id: Int64? = nil, sessionCode: SessionCode, playerId: PlayerID? = nil, kind: Kind,
                 payload: String = "{}", at: Date) {
        self.id = id
        self.sessionCode = sessionCode
        self.playerId = playerId
        self.kind = kind
        self.payload = payload
        self.at = StoreTime.rounded(at)
    }
}

extension StoredEvent {
    static let columns = "id, sessionCode, playerId, type, payload, at"

    init(row: Row) throws(StoreError) {
        id = try row.value("id")
        sessionCode = try row.sessionCode("sessionCode")
        playerId = (try row.value("playerId") as String?).map(PlayerID.init)
        kind = Kind(rawValue: try row.value("type"))
        payload = try row.value("payload")
        at = try row.date("at")
    }

    /// Arguments for an insert that lets SQLite choose the id (columns after `id`).
    var insertArguments: StatementArguments {
        [sessionCode.value, playerId?.rawValue, kind.rawValue, payload, StoreTime.milliseconds(at)]
    }
}
