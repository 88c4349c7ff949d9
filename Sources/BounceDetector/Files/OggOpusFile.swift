import Foundation

/// An Ogg Opus file (RFC 7845), demuxed here and decoded with libopus at 48 kHz.
///
/// Pre-skip is removed from the start and the final granule position trims the end, so the output has
/// exactly the samples that were encoded.
public struct OggOpusFile: AudioSource {
    public var format: AudioFormat { AudioFormat(sampleRate: 48000, channels: head.channels) }
    let head: OpusHead
    private let bytes: FileBytes
    private let audioPackets: ArraySlice<OggPacket>

    /// Frames after pre-skip and end trimming.
    public let frameCount: Int

    /// Demuxes the file and checks its headers; throws `truncated`, `corrupt` or `unsupported`.
    public init(bytes: [UInt8]) throws(AudioError) {
        try self.init(FileBytes(bytes))
    }

    /// A reader over the file's bytes in place (an array or a mapping), copying only the two header packets' bytes.
    init(_ bytes: FileBytes) throws(AudioError) {
        let packets = try OggDemuxer.packets(in: bytes)
        guard let first = packets.first else { throw .truncated("Ogg Opus: the file holds no packets") }
        head = try bytes.withUnsafeBytes { raw throws(AudioError) in try OpusHead(parsing: first.bytes(in: raw)) }
        guard packets.count >= 2 else { throw .truncated("Ogg Opus: the file ends before the OpusTags header") }
        let tags = bytes.withUnsafeBytes { raw in packets[1].prefix(8, in: raw) }
        guard first.count >= 19, tags == Array("OpusTags".utf8) else {
            throw .corrupt("Ogg Opus: the second packet is not an OpusTags header")
        }
        self.bytes = bytes
        self.audioPackets = packets.dropFirst(2)
        let finalGranule = audioPackets.last(where: { $0.granulePosition >= 0 })?.granulePosition ?? 0
        self.frameCount = max(0, Int(finalGranule) - head.preSkip)
    }

    public mutating func forEachChunk(_ body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        let decoder = try OpusPacketDecoder(sampleRate: 48000, channels: head.channels)
        let gain = Float(pow(10, head.outputGainDB / 20))
        var toSkip = head.preSkip
        var toEmit = frameCount
        var scaled = [Float]()
        var joined = [UInt8]()
        var pages = PageReleaser(bytes)
        try bytes.withUnsafeBytes { raw in
            for packet in audioPackets where toEmit > 0 {
                let pcm = try Self.decode(packet, in: raw, with: decoder, joining: &joined)
                if let end = packet.segments.last?.upperBound { pages.passed(end) }
                let frames = pcm.count / head.channels
                let skipped = min(toSkip, frames)
                toSkip -= skipped
                let emitted = min(frames - skipped, toEmit)
                toEmit -= emitted
                guard emitted > 0 else { continue }
                let chunk = UnsafeBufferPointer(
                    rebasing: pcm[(skipped * head.channels)..<((skipped + emitted) * head.channels)])
                if gain == 1 {
                    try body(chunk)
                } else {
                    scaled.removeAll(keepingCapacity: true)
                    scaled.append(contentsOf: chunk.lazy.map { $0 * gain })
                    try scaled.withUnsafeBufferPointer(body)
                }
            }
        }
    }

    /// Decodes a packet straight from the file's bytes; one spread over several pages is joined in `scratch` first.
    private static func decode(
        _ packet: OggPacket, in file: UnsafeRawBufferPointer, with decoder: OpusPacketDecoder,
        joining scratch: inout [UInt8]
    ) throws(AudioError) -> UnsafeBufferPointer<Float> {
        if packet.segments.count == 1 {
            return try decoder.decode(UnsafeRawBufferPointer(rebasing: file[packet.segments[0]]))
        }
        scratch.removeAll(keepingCapacity: true)
        for segment in packet.segments { scratch.append(contentsOf: file[segment]) }
        return try decoder.decode(scratch)
    }
}
