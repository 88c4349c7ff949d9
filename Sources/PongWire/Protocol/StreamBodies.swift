/// `POST /streams/start` body: `{sessionCode, video: {…} | null, audio: {…} | null}`.
///
/// `video: null` is "join without video", `audio: null` "continue without audio"; an absent key counts as null.
package struct StreamStartRequest: Codable, Hashable, Sendable {
    /// `{codec, quality, fps}`.
    package struct Video: Codable, Hashable, Sendable {
        /// `"h264"` or `"vp8"`.
        package var codec: VideoCodec
        /// `"720p"`, `"1080p"` or `"auto"`.
        package var quality: VideoQuality
        /// 30, 60 or 120.
        package var fps: FrameRate

        package init(codec: VideoCodec, quality: VideoQuality, fps: FrameRate) {
            self.codec = codec
            self.quality = quality
            self.fps = fps
        }

        private enum CodingKeys: String, CodingKey { case codec, quality, fps }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            codec = try container.decodeField(VideoCodec.self, forKey: .codec)
            quality = try container.decodeField(VideoQuality.self, forKey: .quality)
            fps = try container.decodeField(FrameRate.self, forKey: .fps)
        }
    }

    /// `{codec, sampleRate, channels, preSkip?}`.
    package struct Audio: Codable, Hashable, Sendable {
        /// `"opus"` or `"aac"`.
        package var codec: AudioCodec
        /// Hz, 8000...192000.
        package var sampleRate: Int
        /// 1 or 2.
        package var channels: Int
        /// Opus encoder delay in samples at 48 kHz, 0...65535, taken off stream time.
        package var preSkip: Int?

        package init(codec: AudioCodec, sampleRate: Int, channels: Int, preSkip: Int? = nil) {
            self.codec = codec
            self.sampleRate = sampleRate
            self.channels = channels
            self.preSkip = preSkip
        }

        private enum CodingKeys: String, CodingKey { case codec, sampleRate, channels, preSkip }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            codec = try container.decodeField(AudioCodec.self, forKey: .codec)
            sampleRate = try container.decodeField(Int.self, forKey: .sampleRate)
            channels = try container.decodeField(Int.self, forKey: .channels)
            preSkip = try container.decodeFieldIfPresent(Int.self, forKey: .preSkip)
            guard (8000...192_000).contains(sampleRate) else {
                throw DecodingError.dataCorruptedError(forKey: .sampleRate, in: container, debugDescription: "range")
            }
            guard (1...2).contains(channels) else {
                throw DecodingError.dataCorruptedError(forKey: .channels, in: container, debugDescription: "1 or 2")
            }
            if let preSkip, !(0...65535).contains(preSkip) {
                throw DecodingError.dataCorruptedError(forKey: .preSkip, in: container, debugDescription: "range")
            }
        }
    }

    /// The session the stream belongs to (any accepted code spelling).
    package var sessionCode: String
    /// Video track, or nil to join without video.
    package var video: Video?
    /// Audio track, or nil to continue without audio.
    package var audio: Audio?

    package init(sessionCode: String, video: Video?, audio: Audio?) {
        self.sessionCode = sessionCode
        self.video = video
        self.audio = audio
    }

    /// The session code, normalized; `.invalidSessionCode` or `.noMedia` (both tracks null) otherwise.
    package func validated() throws(APIError) -> SessionCode {
        guard let code = SessionCode(userInput: sessionCode) else { throw .invalidSessionCode }
        guard video != nil || audio != nil else { throw .noMedia }
        return code
    }
}

/// `POST /streams/start` answer (200): `{streamId}`.
package struct StreamStartResponse: Codable, Hashable, Sendable {
    /// Identifies the stream in media frames' routing and logs.
    package var streamId: String

    package init(streamId: String) { self.streamId = streamId }
}
