/// `welcome {playerId, resumeToken, lobby}`; for a dashboard only `{lobby}` (the other keys are left out).
package struct Welcome: Codable, Hashable, Sendable {
    /// The player's seat (absent for a dashboard).
    package var playerId: PlayerID?
    /// Send this in `hello` after a dropped connection to get the seat back (absent for a dashboard).
    package var resumeToken: String?
    /// The current lobby snapshot.
    package var lobby: LobbySnapshot

    package init(playerId: PlayerID? = nil, resumeToken: String? = nil, lobby: LobbySnapshot) {
        self.playerId = playerId
        self.resumeToken = resumeToken
        self.lobby = lobby
    }
}

/// `probe.upload {seconds}`.
package struct ProbeUpload: Codable, Hashable, Sendable {
    /// How long to send filler, in seconds.
    package var seconds: Double

    package init(seconds: Double) { self.seconds = seconds }
}

/// `bounce {playerId, streamTime, captureTime, kind, confidence}`.
package struct Bounce: Codable, Hashable, Sendable {
    /// Whose microphone heard it.
    package var playerId: PlayerID
    /// Seconds from the first decoded sample, less the stream's `preSkip`.
    package var streamTime: Double
    /// µs on the phone's clock: the frame's captureTime plus the onset's offset in that frame.
    package var captureTime: Int64
    /// Table bounce, racket hit, or another transient.
    package var kind: BounceKind
    /// Classifier confidence, 0...1.
    package var confidence: Double

    package init(playerId: PlayerID, streamTime: Double, captureTime: Int64, kind: BounceKind, confidence: Double) {
        self.playerId = playerId
        self.streamTime = streamTime
        self.captureTime = captureTime
        self.kind = kind
        self.confidence = confidence
    }
}

/// `stream {state, resolution, fps, uploadKbps, diagnostics?}` about the player's own stream; a dashboard gets every
/// player's, with `playerId`.
///
/// `resolution` (e.g. `"1280x720"`) and `fps` are `null` while unknown or without video; `diagnostics` (texts a
/// phone can show, e.g. "Check network connection") is left out when there are none.
package struct StreamReport: Codable, Hashable, Sendable {
    /// `starting`, `live` or `failed`.
    package var state: StreamState
    /// Width x height of the received video, or nil.
    package var resolution: String?
    /// Received video frame rate, or nil.
    package var fps: Int?
    /// Measured media upload rate.
    package var uploadKbps: Double
    /// Hints shown with a failed stream.
    package var diagnostics: [String]?
    /// Microphone input the phone skipped (its frames' captureTimes jumped past the audio sent), which stream time
    /// skipped too; nil (left out) while there was none.
    package var captureGaps: Gaps?
    /// Whose stream: set on the copies sent to the session's dashboards, left out on the player's own.
    package var playerId: PlayerID?

    /// `captureGaps {count, ms}`: how many gaps, and their total length in ms (0.1 ms).
    package struct Gaps: Codable, Hashable, Sendable {
        package var count: Int
        package var ms: Double

        package init(count: Int, ms: Double) {
            self.count = count
            self.ms = ms
        }
    }

    package init(state: StreamState, resolution: String?, fps: Int?, uploadKbps: Double, diagnostics: [String]? = nil) {
        self.state = state
        self.resolution = resolution
        self.fps = fps
        self.uploadKbps = uploadKbps
        self.diagnostics = diagnostics
    }

    private enum CodingKeys: String, CodingKey { case state, resolution, fps, uploadKbps, diagnostics, captureGaps, playerId }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state, forKey: .state)
        try container.encode(resolution, forKey: .resolution)  // explicit null
        try container.encode(fps, forKey: .fps)  // explicit null
        try container.encode(uploadKbps, forKey: .uploadKbps)
        try container.encodeIfPresent(diagnostics, forKey: .diagnostics)
        try container.encodeIfPresent(captureGaps, forKey: .captureGaps)
        try container.encodeIfPresent(playerId, forKey: .playerId)
    }
}

/// `error {code, message}`: the WebSocket form of an `APIError`.
package struct ErrorBody: Codable, Hashable, Sendable {
    /// Stable snake_case code.
    package var code: String
    /// Text a phone can show.
    package var message: String

    package init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

/// `sessionEnded {reason}`.
package struct SessionEnded: Codable, Hashable, Sendable {
    /// Why it ended.
    package var reason: SessionEndReason

    package init(reason: SessionEndReason) { self.reason = reason }
}
