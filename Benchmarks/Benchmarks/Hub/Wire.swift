import Foundation
import NIOCore

// The few response fields the benchmark reads (docs/PROTOCOL.md, "HTTP bodies" and the lobby snapshot).

/// `POST /auth/guest` → 201.
struct GuestReply: Decodable, Sendable {
    var userId: String
    var token: String
}

/// `POST /sessions` → 201.
struct SessionReply: Decodable, Sendable {
    var code: String
    var hostToken: String
}

/// `POST /sessions/{code}/join` → 200.
struct JoinReply: Decodable, Sendable {
    var playerId: String
    var websocketURL: String
}

/// A `lobby` message, only as far as the fan-out check needs it: every player's mute flags.
struct LobbyMessage: Decodable, Sendable {
    struct Player: Decodable, Sendable {
        struct Stream: Decodable, Sendable {
            struct Muted: Decodable, Sendable {
                var video: Bool
                var audio: Bool
            }

            var muted: Muted
        }

        var playerId: String
        var stream: Stream
    }

    var type: String
    var players: [Player]
}

/// Benchmark set-up failed or the server answered something unexpected.
struct BenchError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

extension ByteBuffer {
    /// The readable bytes decoded as JSON `Value`.
    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try JSONDecoder().decode(type, from: Data(readableBytesView))
    }
}
