/// The fixed part of an ADTS header (ISO/IEC 13818-7 / 14496-3), enough to split a stream into frames.
public struct ADTSHeader: Equatable, Sendable {
    /// Sampling rates by `sampling_frequency_index`.
    static let sampleRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    /// Samples per second.
    public var sampleRate: Int
    /// Channel configuration (1 mono, 2 stereo, …; 0 means defined in-band).
    public var channelConfiguration: Int
    /// Whole frame length in bytes, header included.
    public var frameLength: Int
    /// Header bytes: 7, or 9 with a CRC.
    public var headerLength: Int

    /// Whether `bytes` start with the ADTS sync word (12 bits set) and layer 0.
    static func startsWithSync(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        guard let first = iterator.next(), let second = iterator.next() else { return false }
        return first == 0xFF && second & 0xF6 == 0xF0
    }

    /// Parses the header at the start of `bytes`; throws `truncated`, `corrupt` or `unsupported`.
    public init(_ bytes: UnsafeRawBufferPointer) throws(AudioError) {
        guard bytes.count >= 7 else { throw .truncated("AAC: an ADTS header needs 7 bytes, got \(bytes.count)") }
        guard Self.startsWithSync(bytes) else {
            throw .corrupt("AAC: no ADTS sync word (0xFFF, layer 0) at the frame start")
        }
        let rateIndex = Int(bytes[2] >> 2) & 0x0F
        guard rateIndex < Self.sampleRates.count else {
            throw .corrupt("AAC: ADTS sampling frequency index \(rateIndex) is reserved")
        }
        sampleRate = Self.sampleRates[rateIndex]
        channelConfiguration = Int(bytes[2] & 0x01) << 2 | Int(bytes[3] >> 6)
        frameLength = Int(bytes[3] & 0x03) << 11 | Int(bytes[4]) << 3 | Int(bytes[5] >> 5)
        headerLength = bytes[1] & 0x01 == 0 ? 9 : 7
        guard frameLength >= headerLength else {
            throw .corrupt("AAC: ADTS frame length \(frameLength) is shorter than its header")
        }
    }

    /// Byte ranges of the consecutive ADTS frames in `bytes` (an .aac file); throws on a bad or cut frame.
    public static func frames(in bytes: [UInt8]) throws(AudioError) -> [Range<Int>] {
        try frames(in: FileBytes(bytes))
    }

    /// Byte ranges of the consecutive ADTS frames in the file's bytes in place (an array or a mapping).
    static func frames(in file: FileBytes) throws(AudioError) -> [Range<Int>] {
        var pages = PageReleaser(file)
        return try file.withUnsafeBytes { raw throws(AudioError) in try frames(inBuffer: raw, releasing: &pages) }
    }

    private static func frames(
        inBuffer bytes: UnsafeRawBufferPointer, releasing pages: inout PageReleaser
    ) throws(AudioError) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var offset = 0
        while offset < bytes.count {
            let header: ADTSHeader
            do {
                header = try ADTSHeader(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            } catch {
                throw AudioError(error.code, "\(error.message) (frame \(ranges.count), offset \(offset))")
            }
            guard offset + header.frameLength <= bytes.count else {
                throw .truncated("AAC: frame \(ranges.count) declares \(header.frameLength) bytes but only \(bytes.count - offset) remain")
            }
            ranges.append(offset..<offset + header.frameLength)
            offset += header.frameLength
            pages.passed(offset)
        }
        return ranges
    }
}
