extension ClientMessage {
    /// `hello {resumeToken?}`: with the token of `welcome` (or of the join response) it resumes a dropped seat.
    package struct Hello: Codable, Hashable, Sendable {
        /// The seat's resume token; absent or `null` starts the journey afresh on the seat.
        package var resumeToken: String?

        /// Longest resume token accepted (the server issues 48 characters); longer is `invalid_field`.
        package static let maxResumeTokenBytes = 128

        package init(resumeToken: String? = nil) { self.resumeToken = resumeToken }

        private enum CodingKeys: String, CodingKey { case resumeToken }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            resumeToken = try container.decodeFieldIfPresent(String.self, forKey: .resumeToken)
            if let resumeToken, resumeToken.utf8.count > Self.maxResumeTokenBytes {
                throw DecodingError.dataCorruptedError(forKey: .resumeToken, in: container, debugDescription: "length")
            }
        }
    }

    /// `permissions {camera, microphone, notifications?}`: what the phone's OS answered.
    package struct Permissions: Codable, Hashable, Sendable {
        /// Camera permission.
        package var camera: PermissionStatus
        /// Microphone permission.
        package var microphone: PermissionStatus
        /// The optional game-notifications toggle.
        package var notifications: Bool?

        package init(camera: PermissionStatus, microphone: PermissionStatus, notifications: Bool? = nil) {
            self.camera = camera
            self.microphone = microphone
            self.notifications = notifications
        }
    }

    /// `streamConfig {quality, fps}`: the stream setup screen's choices.
    package struct StreamConfig: Codable, Hashable, Sendable {
        /// `"720p"`, `"1080p"` or `"auto"`.
        package var quality: VideoQuality
        /// 30, 60 or 120.
        package var fps: FrameRate

        package init(quality: VideoQuality, fps: FrameRate) {
            self.quality = quality
            self.fps = fps
        }

        private enum CodingKeys: String, CodingKey { case quality, fps }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            quality = try container.decodeField(VideoQuality.self, forKey: .quality)
            fps = try container.decodeField(FrameRate.self, forKey: .fps)
        }
    }

    /// `battery {level, charging}`: `level` is a percentage from 0 to 100 (fractions allowed).
    package struct Battery: Codable, Hashable, Sendable {
        /// Charge in percent, 0...100.
        package var level: Double
        /// Whether the phone is plugged in.
        package var charging: Bool

        package init(level: Double, charging: Bool) {
            self.level = level
            self.charging = charging
        }

        private enum CodingKeys: String, CodingKey { case level, charging }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            level = try container.decodeField(Double.self, forKey: .level)
            charging = try container.decodeField(Bool.self, forKey: .charging)
            guard (0...100).contains(level) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .level, in: container, debugDescription: "must be a number from 0 to 100")
            }
        }
    }

    /// `audio.preSkip {preSkip}`: the audio encoder's delay in 48 kHz frames (an OpusHead's pre-skip), for a phone
    /// that learns it only from its first encoded packet, after `POST /streams/start`. 0...65535.
    package struct AudioPreSkip: Codable, Hashable, Sendable {
        /// Encoder delay, 48 kHz frames.
        package var preSkip: Int

        package init(preSkip: Int) { self.preSkip = preSkip }

        private enum CodingKeys: String, CodingKey { case preSkip }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            preSkip = try container.decodeField(Int.self, forKey: .preSkip)
            guard (0...65535).contains(preSkip) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .preSkip, in: container, debugDescription: "must be an integer from 0 to 65535")
            }
        }
    }

    /// `mute {video, audio}`: `true` mutes that track (the stream keeps its state; the lobby shows the mute).
    package struct Mute: Codable, Hashable, Sendable {
        /// Video muted.
        package var video: Bool
        /// Audio muted.
        package var audio: Bool

        package init(video: Bool, audio: Bool) {
            self.video = video
            self.audio = audio
        }
    }
}

/// The fields of `probe.ping {id, t}` and of its echo `probe.pong {id, t}`.
///
/// `id` numbers the ping; `t` is the server's send time in µs on the prober's clock. The phone echoes both at once.
package struct ProbeStamp: Codable, Hashable, Sendable {
    /// Ping number.
    package var id: Int
    /// Server send time, µs.
    package var t: Int64

    package init(id: Int, t: Int64) {
        self.id = id
        self.t = t
    }

    private enum CodingKeys: String, CodingKey { case id, t }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeField(Int.self, forKey: .id)
        t = try container.decodeField(Int64.self, forKey: .t)
    }
}
