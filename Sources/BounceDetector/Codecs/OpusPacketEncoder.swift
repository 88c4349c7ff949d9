import CAudio

/// Encodes interleaved `Float` PCM to Opus packets with libopus (what a phone does before it streams).
public final class OpusPacketEncoder {
    /// What the encoder is tuned for.
    public enum Application: Sendable {
        /// Speech-oriented (OPUS_APPLICATION_VOIP).
        case voip
        /// General audio (OPUS_APPLICATION_AUDIO).
        case audio
        /// Lowest delay (OPUS_APPLICATION_RESTRICTED_LOWDELAY).
        case lowDelay

        var value: Int32 {
            switch self {
            case .voip: OPUS_APPLICATION_VOIP
            case .audio: OPUS_APPLICATION_AUDIO
            case .lowDelay: OPUS_APPLICATION_RESTRICTED_LOWDELAY
            }
        }
    }

    /// Input rate: 8, 12, 16, 24 or 48 kHz.
    public let sampleRate: Int
    /// Input channels: 1 or 2.
    public let channels: Int
    /// Encoder delay in samples at `sampleRate` (what an OpusHead's pre-skip holds, at 48 kHz).
    public let lookahead: Int

    private let encoder: OpaquePointer
    private let packet: UnsafeMutablePointer<UInt8>
    private static let maxPacketBytes = 4000

    /// Creates an encoder at `bitrate` bits per second.
    public init(sampleRate: Int = 48000, channels: Int = 1, bitrate: Int = 24000, application: Application = .audio)
        throws(AudioError)
    {
        guard [8000, 12000, 16000, 24000, 48000].contains(sampleRate) else {
            throw .unsupported("Opus: cannot encode at \(sampleRate) Hz (8, 12, 16, 24 or 48 kHz)")
        }
        guard channels == 1 || channels == 2 else { throw .unsupported("Opus: \(channels) channels (1 or 2)") }
        var status: Int32 = 0
        guard let encoder = opus_encoder_create(Int32(sampleRate), Int32(channels), application.value, &status),
            status == OPUS_OK
        else {
            throw .codec("Opus: encoder creation failed: \(OpusPacketDecoder.describe(status))")
        }
        self.encoder = encoder
        self.sampleRate = sampleRate
        self.channels = channels
        self.packet = .allocate(capacity: Self.maxPacketBytes)
        let bitrateStatus = pong_opus_encoder_set_bitrate(encoder, Int32(bitrate))
        var delay: Int32 = 0
        _ = pong_opus_encoder_get_lookahead(encoder, &delay)
        self.lookahead = Int(delay)
        guard bitrateStatus == OPUS_OK else {
            opus_encoder_destroy(encoder)
            packet.deallocate()
            throw .unsupported("Opus: bitrate \(bitrate) rejected: \(OpusPacketDecoder.describe(bitrateStatus))")
        }
    }

    deinit {
        opus_encoder_destroy(encoder)
        packet.deallocate()
    }

    /// Encodes one frame of 2.5, 5, 10, 20, 40 or 60 ms (`pcm.count` = frames × channels); returns the packet.
    public func encode(_ pcm: UnsafeBufferPointer<Float>) throws(AudioError) -> [UInt8] {
        let frames = pcm.count / channels
        let validFrames = [sampleRate / 400, sampleRate / 200, sampleRate / 100, sampleRate / 50, sampleRate / 25,
                           sampleRate * 3 / 50]
        guard frames * channels == pcm.count, validFrames.contains(frames), let input = pcm.baseAddress else {
            throw .unsupported("Opus: cannot encode a frame of \(frames) samples at \(sampleRate) Hz")
        }
        let bytes = opus_encode_float(encoder, input, Int32(frames), packet, Int32(Self.maxPacketBytes))
        guard bytes > 0 else { throw .codec("Opus: encoding failed: \(OpusPacketDecoder.describe(bytes))") }
        return Array(UnsafeBufferPointer(start: packet, count: Int(bytes)))
    }

    /// Encodes one frame held in an array.
    public func encode(_ pcm: [Float]) throws(AudioError) -> [UInt8] {
        try pcm.withAudioSamples { buffer throws(AudioError) in try encode(buffer) }
    }
}
