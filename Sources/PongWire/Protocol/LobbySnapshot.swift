/// The lobby as every client sees it: the `lobby` message's fields, `welcome.lobby`, and `GET /sessions/{code}`.
///
/// Field names are the contract's exactly; `photoURL` and `grade` are always present, `null` when unknown.
package struct LobbySnapshot: Codable, Hashable, Sendable {
    /// `host {name}`.
    package struct Host: Codable, Hashable, Sendable {
        /// The host's display name ("" if the host has none).
        package var name: String

        package init(name: String) { self.name = name }
    }

    /// One seated player.
    package struct Player: Codable, Hashable, Sendable {
        /// The seat.
        package var playerId: PlayerID
        /// Display name ("" until the player has set one).
        package var name: String
        /// Profile photo URL, or nil.
        package var photoURL: String?
        /// Socket up, or dropped and inside the grace period.
        package var connection: ConnectionStatus
        /// Declared ready.
        package var ready: Bool
        /// Media tracks and mutes.
        package var stream: Stream
        /// Latest connection grade, or nil before any test.
        package var grade: ConnectionGrade?

        package init(playerId: PlayerID, name: String, photoURL: String?, connection: ConnectionStatus, ready: Bool,
                     stream: Stream, grade: ConnectionGrade?) {
            self.playerId = playerId
            self.name = name
            self.photoURL = photoURL
            self.connection = connection
            self.ready = ready
            self.stream = stream
            self.grade = grade
        }

        private enum CodingKeys: String, CodingKey {
            case playerId, name, photoURL, connection, ready, stream, grade
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(playerId, forKey: .playerId)
            try container.encode(name, forKey: .name)
            try container.encode(photoURL, forKey: .photoURL)  // explicit null
            try container.encode(connection, forKey: .connection)
            try container.encode(ready, forKey: .ready)
            try container.encode(stream, forKey: .stream)
            try container.encode(grade, forKey: .grade)  // explicit null
        }
    }

    /// `stream {video, audio, muted {video, audio}}`; `off` for a track the player joined without.
    package struct Stream: Codable, Hashable, Sendable {
        /// Video track state.
        package var video: MediaState
        /// Audio track state (`off`: bounce detection is off for this player).
        package var audio: MediaState
        /// Mutes the player set.
        package var muted: Muted

        package init(video: MediaState, audio: MediaState, muted: Muted) {
            self.video = video
            self.audio = audio
            self.muted = muted
        }
    }

    /// `muted {video, audio}`.
    package struct Muted: Codable, Hashable, Sendable {
        /// Video muted.
        package var video: Bool
        /// Audio muted.
        package var audio: Bool

        package init(video: Bool = false, audio: Bool = false) {
            self.video = video
            self.audio = audio
        }
    }

    /// Canonical code, e.g. `"ABC234"`.
    package var code: String
    /// Code as shown, e.g. `"ABC-234"`.
    package var displayCode: String
    /// `waiting`, `playing` or `ended`.
    package var state: SessionPhase
    /// The host.
    package var host: Host
    /// The game settings.
    package var game: GameSettings
    /// Seated players in join order.
    package var players: [Player]

    package init(code: String, displayCode: String, state: SessionPhase, host: Host, game: GameSettings,
                 players: [Player]) {
        self.code = code
        self.displayCode = displayCode
        self.state = state
        self.host = host
        self.game = game
        self.players = players
    }
}
