/// A raw AAC file of consecutive ADTS frames, decoded with libavcodec.
public struct ADTSFile: AudioSource {
    public let format: AudioFormat
    private let bytes: FileBytes
    private let frames: [Range<Int>]

    /// Splits the file into frames and reads the format from the first header.
    public init(bytes: [UInt8]) throws(AudioError) {
        try self.init(FileBytes(bytes))
    }

    /// A reader over the file's bytes in place (an array or a mapping), copying none of them.
    init(_ bytes: FileBytes) throws(AudioError) {
        frames = try ADTSHeader.frames(in: bytes)
        guard let first = frames.first else { throw .truncated("AAC: the file holds no ADTS frame") }
        let header = try bytes.withUnsafeBytes { raw throws(AudioError) in
            try ADTSHeader(UnsafeRawBufferPointer(rebasing: raw[first]))
        }
        guard header.channelConfiguration > 0 else {
            throw .unsupported("AAC: channel configuration 0 (in-band layout) is not supported")
        }
        self.bytes = bytes
        self.format = AudioFormat(sampleRate: header.sampleRate, channels: header.channelConfiguration)
    }

    public mutating func forEachChunk(_ body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        let decoder = try AACFrameDecoder()
        var pages = PageReleaser(bytes)
        try bytes.withUnsafeBytes { raw in
            for range in frames {
                let pcm = try decoder.decode(UnsafeRawBufferPointer(rebasing: raw[range]))
                pages.passed(range.upperBound)
                if !pcm.isEmpty { try body(pcm) }
            }
        }
    }
}
