// The kind and codec bytes of a binary media frame (DESIGN.md, "Binary frames").

extension MediaFrame {
    /// The frame's first byte.
    public enum Kind: UInt8, Hashable, Sendable, CaseIterable {
        /// Microphone audio.
        case audio = 1
        /// Camera video.
        case video = 2
        /// Upload-probe filler sent during `probe.upload` (any bytes; counted, never decoded).
        case uploadFiller = 3
    }

    /// The frame's second byte, read together with its kind: codec numbers are per kind.
    public enum Codec: Hashable, Sendable, CaseIterable {
        /// Audio codec 1: one Opus packet.
        case opus
        /// Audio codec 2: one AAC frame with its ADTS header.
        case aac
        /// Video codec 1: one H.264 access unit in Annex-B byte stream format.
        case h264
        /// Video codec 2: one VP8 frame.
        case vp8
        /// Upload-probe filler, codec 0.
        case filler

        /// The codec of `wireValue` within `kind`, or nil when that kind has no such codec.
        package init?(kind: Kind, wireValue: UInt8) {
            switch (kind, wireValue) {
            case (.audio, 1): self = .opus
            case (.audio, 2): self = .aac
            case (.video, 1): self = .h264
            case (.video, 2): self = .vp8
            case (.uploadFiller, 0): self = .filler
            default: return nil
            }
        }

        /// The kind of frame that carries this codec.
        package var kind: Kind {
            switch self {
            case .opus, .aac: .audio
            case .h264, .vp8: .video
            case .filler: .uploadFiller
            }
        }

        /// The codec byte on the wire.
        package var wireValue: UInt8 {
            switch self {
            case .opus, .h264: 1
            case .aac, .vp8: 2
            case .filler: 0
            }
        }

        /// The `POST /streams/start` audio codec this frame codec belongs to, for audio frames.
        package var audioCodec: AudioCodec? {
            switch self {
            case .opus: .opus
            case .aac: .aac
            case .h264, .vp8, .filler: nil
            }
        }

        /// The `POST /streams/start` video codec this frame codec belongs to, for video frames.
        package var videoCodec: VideoCodec? {
            switch self {
            case .h264: .h264
            case .vp8: .vp8
            case .opus, .aac, .filler: nil
            }
        }
    }
}
