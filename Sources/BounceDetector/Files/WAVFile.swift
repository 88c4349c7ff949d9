/// A RIFF/WAVE file: 16/24/32-bit integer or 32-bit float PCM, any rate, any channel count,
/// plain or WAVE_FORMAT_EXTENSIBLE. Header and chunk sizes are checked against the bytes present.
public struct WAVFile: AudioSource {
    /// How each sample is stored.
    enum Encoding: Equatable { case int16, int24, int32, float32 }

    public let format: AudioFormat
    let encoding: Encoding
    private let bytes: FileBytes
    private let dataRange: Range<Int>
    /// Frames converted per `forEachChunk` call.
    private let chunkFrames: Int

    /// Frames in the data chunk.
    public var frameCount: Int { dataRange.count / (bytesPerSample * format.channels) }
    private var bytesPerSample: Int {
        switch encoding {
        case .int16: 2
        case .int24: 3
        case .int32, .float32: 4
        }
    }

    /// Parses the header and locates the data chunk; throws `truncated`, `corrupt` or `unsupported`.
    public init(bytes: [UInt8], chunkFrames: Int = 4096) throws(AudioError) {
        try self.init(FileBytes(bytes), chunkFrames: chunkFrames)
    }

    /// A reader over the file's bytes in place (an array or a mapping), copying none of them.
    init(_ bytes: FileBytes, chunkFrames: Int = 4096) throws(AudioError) {
        let (header, data) = try bytes.withUnsafeBytes { raw throws(AudioError) in try Self.parseChunks(raw) }
        self.format = header.format
        self.encoding = header.encoding
        self.bytes = bytes
        self.dataRange = data
        self.chunkFrames = max(1, chunkFrames)
        let frameBytes = bytesPerSample * format.channels
        guard data.count % frameBytes == 0 else {
            throw .truncated("WAV: data chunk of \(data.count) bytes ends inside a \(frameBytes)-byte frame")
        }
    }

    /// The format and where the data chunk is.
    private static func parseChunks(
        _ bytes: UnsafeRawBufferPointer
    ) throws(AudioError) -> (header: (format: AudioFormat, encoding: Encoding), data: Range<Int>) {
        var reader = ByteReader(bytes, context: "WAV")
        let riff = try reader.ascii(4, "RIFF tag")
        guard riff == "RIFF" || riff == "RF64" else { throw .corrupt("WAV: file does not start with RIFF") }
        _ = try reader.u32le("RIFF size")
        guard try reader.ascii(4, "WAVE tag") == "WAVE" else { throw .corrupt("WAV: RIFF form is not WAVE") }

        var header: (format: AudioFormat, encoding: Encoding)?
        var data: Range<Int>?
        while data == nil {
            guard reader.remaining >= 8 else {
                throw header == nil
                    ? .truncated("WAV: file ends before the fmt chunk")
                    : .truncated("WAV: file ends before the data chunk")
            }
            let id = try reader.ascii(4, "chunk id")
            let declared = Int(try reader.u32le("chunk size"))
            switch id {
            case "fmt ":
                try reader.require(declared, for: "fmt chunk")
                let chunk = UnsafeRawBufferPointer(rebasing: bytes[reader.offset..<reader.offset + declared])
                header = try Self.parseFormat(ByteReader(chunk, context: "WAV"))
                try reader.skip(declared + declared % 2, for: "fmt chunk")
            case "data":
                guard header != nil else { throw .corrupt("WAV: data chunk comes before the fmt chunk") }
                // Streaming writers leave the size as 0 or 0xFFFFFFFF: the data then runs to the end.
                let size = (declared == 0 || declared == 0xFFFF_FFFF) ? reader.remaining : declared
                guard size <= reader.remaining else {
                    throw .truncated("WAV: data chunk declares \(size) bytes but only \(reader.remaining) remain")
                }
                data = reader.offset..<reader.offset + size
            default:
                try reader.skip(min(declared + declared % 2, reader.remaining), for: "\(id) chunk")
            }
        }
        guard let header, let data else { throw .corrupt("WAV: no data chunk") }
        return (header, data)
    }

    private static func parseFormat(_ chunk: ByteReader) throws(AudioError) -> (AudioFormat, Encoding) {
        var reader = chunk
        var tag = try reader.u16le("format tag")
        let channels = Int(try reader.u16le("channel count"))
        let rate = Int(try reader.u32le("sample rate"))
        _ = try reader.u32le("byte rate")
        _ = try reader.u16le("block align")
        let bits = Int(try reader.u16le("bits per sample"))
        if tag == 0xFFFE {
            _ = try reader.u16le("extension size")
            _ = try reader.u16le("valid bits")
            _ = try reader.u32le("channel mask")
            tag = try reader.u16le("sub-format GUID")
        }
        guard channels > 0 else { throw .corrupt("WAV: fmt chunk declares 0 channels") }
        guard rate > 0 else { throw .corrupt("WAV: fmt chunk declares a sample rate of 0") }
        let encoding: Encoding
        switch (tag, bits) {
        case (1, 16): encoding = .int16
        case (1, 24): encoding = .int24
        case (1, 32): encoding = .int32
        case (3, 32): encoding = .float32
        default:
            throw .unsupported("WAV: format tag \(tag) with \(bits)-bit samples is not supported (PCM 16/24/32-bit or float 32-bit)")
        }
        return (AudioFormat(sampleRate: rate, channels: channels), encoding)
    }

    public mutating func forEachChunk(_ body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        let samplesPerChunk = chunkFrames * format.channels
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: samplesPerChunk)
        defer { buffer.deallocate() }
        let width = bytesPerSample
        let totalSamples = dataRange.count / width
        var pages = PageReleaser(bytes)
        try bytes.withUnsafeBytes { raw in
            var sample = 0
            while sample < totalSamples {
                let count = min(samplesPerChunk, totalSamples - sample)
                let base = dataRange.lowerBound + sample * width
                convert(raw, from: base, count: count, into: buffer)
                pages.passed(base + count * width)
                try body(UnsafeBufferPointer(rebasing: buffer[0..<count]))
                sample += count
            }
        }
    }

    private func convert(_ raw: UnsafeRawBufferPointer, from base: Int, count: Int, into out: UnsafeMutableBufferPointer<Float>) {
        switch encoding {
        case .int16:
            // Eight at a time (the loop the compiler vectorises), the rest one by one; WAV is little-endian, as is
            // every machine this runs on (the scalar tail says so explicitly).
            let blocks = count / 8
            let scale = SIMD8<Float>(repeating: 1.0 / 32768.0)
            let target = UnsafeMutableRawBufferPointer(out)
            for block in 0..<blocks {
                let word = raw.loadUnaligned(fromByteOffset: base + 16 * block, as: SIMD8<Int16>.self)
                let value = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: word)) * scale
                target.storeBytes(of: value, toByteOffset: 32 * block, as: SIMD8<Float>.self)
            }
            for i in blocks * 8..<count {
                let v = Int16(bitPattern: raw.loadUnaligned(fromByteOffset: base + 2 * i, as: UInt16.self).littleEndian)
                out[i] = Float(v) * (1.0 / 32768.0)
            }
        case .int24:
            for i in 0..<count {
                let p = base + 3 * i
                let u = Int32(raw[p]) | Int32(raw[p + 1]) << 8 | Int32(raw[p + 2]) << 16
                out[i] = Float((u << 8) >> 8) * (1.0 / 8_388_608.0)
            }
        case .int32:
            for i in 0..<count {
                let v = Int32(bitPattern: raw.loadUnaligned(fromByteOffset: base + 4 * i, as: UInt32.self).littleEndian)
                out[i] = Float(v) * (1.0 / 2_147_483_648.0)
            }
        case .float32:
            for i in 0..<count {
                out[i] = Float(bitPattern: raw.loadUnaligned(fromByteOffset: base + 4 * i, as: UInt32.self).littleEndian)
            }
        }
    }
}
