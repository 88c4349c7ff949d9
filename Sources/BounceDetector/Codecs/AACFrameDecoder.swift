import CAudio

/// Decodes AAC ADTS frames to interleaved `Float` PCM through libavcodec.
///
/// Buffers are allocated in `init` (and grown once if a stream needs more); the returned buffer is owned by the
/// decoder and valid until its next call. Not thread-safe: one decoder per stream.
public final class AACFrameDecoder {
    /// Largest ADTS frame (13-bit length field).
    static let maxFrameBytes = 8191

    /// Rate of the last decoded frame (0 before the first).
    public private(set) var sampleRate = 0
    /// Channels of the last decoded frame (0 before the first).
    public private(set) var channels = 0

    private let context: UnsafeMutablePointer<AVCodecContext>
    private let packet: UnsafeMutablePointer<AVPacket>
    private let frame: UnsafeMutablePointer<AVFrame>
    private let input: UnsafeMutableRawBufferPointer
    private var output: UnsafeMutableBufferPointer<Float>

    /// Opens libavcodec's AAC decoder; throws `codec` if this FFmpeg build lacks it.
    public init() throws(AudioError) {
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_AAC) else {
            throw .codec("AAC: this FFmpeg build has no AAC decoder")
        }
        guard let context = avcodec_alloc_context3(codec) else { throw .codec("AAC: cannot allocate a codec context") }
        var contextPointer: UnsafeMutablePointer<AVCodecContext>? = context
        let status = avcodec_open2(context, codec, nil)
        guard status >= 0, let packet = av_packet_alloc(), let frame = av_frame_alloc() else {
            avcodec_free_context(&contextPointer)
            throw .codec("AAC: cannot open the decoder: \(Self.describe(status))")
        }
        self.context = context
        self.packet = packet
        self.frame = frame
        let padding = Int(pong_av_input_buffer_padding_size())
        self.input = .allocate(byteCount: Self.maxFrameBytes + padding, alignment: 64)
        input.initializeMemory(as: UInt8.self, repeating: 0)
        self.output = .allocate(capacity: 2048 * 2)
    }

    deinit {
        var contextPointer: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&contextPointer)
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&packetPointer)
        var framePointer: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&framePointer)
        input.deallocate()
        output.deallocate()
    }

    /// Decodes one ADTS frame (header included); throws `truncated`, `corrupt` or `codec` and stays usable.
    public func decode(_ adtsFrame: UnsafeRawBufferPointer) throws(AudioError) -> UnsafeBufferPointer<Float> {
        let header = try ADTSHeader(adtsFrame)
        guard header.frameLength <= adtsFrame.count else {
            throw .truncated("AAC: ADTS frame declares \(header.frameLength) bytes, got \(adtsFrame.count)")
        }
        let length = header.frameLength
        UnsafeMutableRawBufferPointer(rebasing: input[0..<length]).copyMemory(from: UnsafeRawBufferPointer(rebasing: adtsFrame[0..<length]))
        UnsafeMutableRawBufferPointer(rebasing: input[length..<(length + Int(pong_av_input_buffer_padding_size()))])
            .initializeMemory(as: UInt8.self, repeating: 0)
        packet.pointee.data = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        packet.pointee.size = Int32(length)
        let sent = avcodec_send_packet(context, packet)
        guard sent >= 0 else { throw .codec("AAC: the decoder rejected the frame: \(Self.describe(sent))") }

        var written = 0
        while true {
            let received = avcodec_receive_frame(context, frame)
            if received == pong_averror_eagain() || received == pong_averror_eof() { break }
            guard received >= 0 else { throw .codec("AAC: decoding failed: \(Self.describe(received))") }
            written += try appendFrame(at: written)
            av_frame_unref(frame)
        }
        return UnsafeBufferPointer(rebasing: output[0..<written])
    }

    /// Decodes one ADTS frame held in an array.
    public func decode(_ adtsFrame: [UInt8]) throws(AudioError) -> UnsafeBufferPointer<Float> {
        try adtsFrame.withAudioBytes { raw throws(AudioError) in try decode(raw) }
    }

    /// Converts the current AVFrame to interleaved floats at `offset` in `output`; returns the samples written.
    private func appendFrame(at offset: Int) throws(AudioError) -> Int {
        let frameChannels = Int(frame.pointee.ch_layout.nb_channels)
        let frames = Int(frame.pointee.nb_samples)
        guard frameChannels > 0 else { throw .codec("AAC: decoded frame has no channels") }
        sampleRate = Int(frame.pointee.sample_rate)
        channels = frameChannels
        let needed = offset + frames * frameChannels
        if needed > output.count { grow(to: needed) }
        guard let planes = frame.pointee.extended_data, let out = output.baseAddress.map({ $0 + offset }) else {
            throw .codec("AAC: decoded frame has no data")
        }
        let format = AVSampleFormat(frame.pointee.format)
        let planar = av_sample_fmt_is_planar(format) != 0
        for plane in 0..<(planar ? frameChannels : 1) where planes[plane] == nil {
            throw .codec("AAC: decoded frame lacks channel \(plane)")
        }
        func read<T>(_: T.Type, _ convert: (T) -> Float) {
            if planar {
                for c in 0..<frameChannels {
                    let data = UnsafeRawPointer(planes[c].unsafelyUnwrapped).assumingMemoryBound(to: T.self)
                    for i in 0..<frames { out[i * frameChannels + c] = convert(data[i]) }
                }
            } else {
                let data = UnsafeRawPointer(planes[0].unsafelyUnwrapped).assumingMemoryBound(to: T.self)
                for i in 0..<(frames * frameChannels) { out[i] = convert(data[i]) }
            }
        }
        switch format {
        case AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_FLT: read(Float.self) { $0 }
        case AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_S16: read(Int16.self) { Float($0) * (1.0 / 32768) }
        case AV_SAMPLE_FMT_S32P, AV_SAMPLE_FMT_S32: read(Int32.self) { Float($0) * (1.0 / 2_147_483_648) }
        default:
            throw .unsupported("AAC: decoder produced sample format \(frame.pointee.format)")
        }
        return frames * frameChannels
    }

    private func grow(to capacity: Int) {
        let bigger = UnsafeMutableBufferPointer<Float>.allocate(capacity: capacity)
        _ = bigger.initialize(from: output)
        output.deallocate()
        output = bigger
    }

    static func describe(_ status: Int32) -> String {
        var text = [CChar](repeating: 0, count: 128)
        av_strerror(status, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
