/// An identifier that is a bare string on the wire and in the store, ordered by its text. The identifier types below
/// conform with a stored `rawValue` and `init(_:)`; everything else comes from here.
package protocol StringIdentifier: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The identifier text.
    var rawValue: String { get }
    /// Wraps an identifier text.
    init(_ rawValue: String)
}

extension StringIdentifier {
    package init(from decoder: any Decoder) throws { self.init(try decoder.singleValueContainer().decode(String.self)) }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    package var description: String { rawValue }
}

/// A seat in one session, as the lobby and `welcome` show it (`playerId`).
package struct PlayerID: StringIdentifier {
    package var rawValue: String

    package init(_ rawValue: String) { self.rawValue = rawValue }
}

/// An account (signed-up user or guest), as tokens and HTTP bodies carry it (`userId`).
package struct UserID: StringIdentifier {
    package var rawValue: String

    package init(_ rawValue: String) { self.rawValue = rawValue }
}

/// One open WebSocket, numbered by the transport. State machines address sockets with it, never channels.
package struct ConnectionID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The transport's number for the socket.
    package var rawValue: UInt64

    package init(_ rawValue: UInt64) { self.rawValue = rawValue }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    package var description: String { "#\(rawValue)" }
}
