/// A raw AAC file of consecutive ADTS frames, decoded with libavcodec.
public struct ADTSFile: AudioSource {
    public let format: AudioFormat
    private let bytes: FileBytes
    private let frames: [Range<Int>]

    /// Splits the file into frames and learns the format by decoding the first one.
    public init(bytes: [UInt8]) throws(AudioError) {
        try self.init(FileBytes(bytes))
    }

    /// A reader over the file's bytes in place (an array or a mapping), copying none of them.
    ///
    /// The format is what the first frame decodes to, not what its header says: the two can differ (implicit SBR
    /// doubles the rate; a header's channel configuration can disagree with the channels its frame carries), and
    /// every chunk must have the format declared. Throws `codec` when the first frame does not decode.
    init(_ bytes: FileBytes) throws(AudioError) {
        frames = try ADTSHeader.frames(in: bytes)
        guard let first = frames.first else { throw .truncated("AAC: the file holds no ADTS frame") }
        let header = try bytes.withUnsafeBytes { raw throws(AudioError) in
            try ADTSHeader(UnsafeRawBufferPointer(rebasing: raw[first]))
        }
        guard header.channelConfiguration > 0 else {
            throw .unsupported("AAC: channel configuration 0 (in-band layout) is not supported")
        }
        let decoder = try AACFrameDecoder()
        let pcm = try bytes.withUnsafeBytes { raw throws(AudioError) in
            try decoder.decode(UnsafeRawBufferPointer(rebasing: raw[first]))
        }
        guard !pcm.isEmpty, decoder.sampleRate > 0, decoder.channels > 0 else {
            throw .codec("AAC: the first frame decodes to no audio")
        }
        self.bytes = bytes
        self.format = AudioFormat(sampleRate: decoder.sampleRate, channels: decoder.channels)
    }

    public mutating func forEachChunk(_ body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        let decoder = try AACFrameDecoder()
        var pages = PageReleaser(bytes)
        try bytes.withUnsafeBytes { raw in
            for (index, range) in frames.enumerated() {
                let pcm = try decoder.decode(UnsafeRawBufferPointer(rebasing: raw[range]))
                pages.passed(range.upperBound)
                guard !pcm.isEmpty else { continue }
                guard decoder.sampleRate == format.sampleRate, decoder.channels == format.channels else {
                    throw AudioError.unsupported(
                        "AAC: frame \(index) decodes to \(decoder.sampleRate) Hz, \(decoder.channels) channels; "
                            + "the first to \(format.sampleRate) Hz, \(format.channels) (a file must not change them)")
                }
                try body(pcm)
            }
        }
    }
}
