import CAudio

/// Decodes Opus packets (RFC 6716) to interleaved `Float` PCM with libopus, concealing lost packets.
///
/// All memory is allocated in `init`; `decode` and `concealLoss` allocate nothing. The returned buffer is
/// owned by the decoder and valid until its next call. Not thread-safe: one decoder per stream.
public final class OpusPacketDecoder {
    /// Largest Opus frame: 120 ms.
    public static let maxFrameDuration = 0.120

    /// Output rate: 8, 12, 16, 24 or 48 kHz.
    public let sampleRate: Int
    /// Output channels: 1 or 2.
    public let channels: Int
    /// Frames per channel of the last decoded or concealed packet (used to size a concealment).
    public private(set) var lastPacketFrames: Int

    private let decoder: OpaquePointer
    private let output: UnsafeMutablePointer<Float>
    private let maxFrames: Int

    /// Creates a decoder; throws `unsupported` for a rate or channel count libopus does not accept.
    public init(sampleRate: Int = 48000, channels: Int = 1) throws(AudioError) {
        guard [8000, 12000, 16000, 24000, 48000].contains(sampleRate) else {
            throw .unsupported("Opus: cannot decode at \(sampleRate) Hz (8, 12, 16, 24 or 48 kHz)")
        }
        guard channels == 1 || channels == 2 else {
            throw .unsupported("Opus: \(channels) channels (1 or 2)")
        }
        var status: Int32 = 0
        guard let decoder = opus_decoder_create(Int32(sampleRate), Int32(channels), &status), status == OPUS_OK else {
            throw .codec("Opus: decoder creation failed: \(Self.describe(status))")
        }
        self.decoder = decoder
        self.sampleRate = sampleRate
        self.channels = channels
        self.maxFrames = Int(Double(sampleRate) * Self.maxFrameDuration)
        self.lastPacketFrames = sampleRate / 50
        self.output = .allocate(capacity: maxFrames * channels)
        output.initialize(repeating: 0, count: maxFrames * channels)
    }

    deinit {
        opus_decoder_destroy(decoder)
        output.deallocate()
    }

    /// Decodes one packet; throws `codec` for a packet libopus rejects (the decoder stays usable).
    public func decode(_ packet: UnsafeRawBufferPointer) throws(AudioError) -> UnsafeBufferPointer<Float> {
        guard !packet.isEmpty, let base = packet.baseAddress else {
            throw .codec("Opus: empty packet")
        }
        let frames = opus_decode_float(
            decoder, base.assumingMemoryBound(to: UInt8.self), Int32(packet.count),
            output, Int32(maxFrames), 0)
        guard frames >= 0 else { throw .codec("Opus: undecodable packet: \(Self.describe(frames))") }
        lastPacketFrames = Int(frames)
        return UnsafeBufferPointer(start: output, count: Int(frames) * channels)
    }

    /// Decodes one packet held in an array.
    public func decode(_ packet: [UInt8]) throws(AudioError) -> UnsafeBufferPointer<Float> {
        try packet.withAudioBytes { raw throws(AudioError) in try decode(raw) }
    }

    /// Synthesises audio for one lost packet (packet-loss concealment), so stream time stays exact.
    /// `frames` defaults to the last packet's duration and is rounded to libopus's 2.5 ms grid.
    public func concealLoss(frames requested: Int? = nil) throws(AudioError) -> UnsafeBufferPointer<Float> {
        let quantum = sampleRate / 400
        let wanted = min(max(requested ?? lastPacketFrames, quantum), maxFrames)
        let frames = opus_decode_float(decoder, nil, 0, output, Int32(wanted / quantum * quantum), 0)
        guard frames >= 0 else { throw .codec("Opus: loss concealment failed: \(Self.describe(frames))") }
        return UnsafeBufferPointer(start: output, count: Int(frames) * channels)
    }

    static func describe(_ status: Int32) -> String {
        guard let text = opus_strerror(status) else { return "error \(status)" }
        return String(cString: text)
    }
}
