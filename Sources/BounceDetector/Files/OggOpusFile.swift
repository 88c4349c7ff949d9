import Foundation

/// An Ogg Opus file (RFC 7845), demuxed here and decoded with libopus at 48 kHz.
///
/// Pre-skip is removed from the start and the final granule position trims the end, so the output has
/// exactly the samples that were encoded.
public struct OggOpusFile: AudioSource {
    public var format: AudioFormat { AudioFormat(sampleRate: 48000, channels: head.channels) }
    let head: OpusHead
    private let bytes: [UInt8]
    private let audioPackets: ArraySlice<OggPacket>

    /// Frames after pre-skip and end trimming.
    public let frameCount: Int

    /// Demuxes the file and checks its headers; throws `truncated`, `corrupt` or `unsupported`.
    public init(bytes: [UInt8]) throws(AudioError) {
        let packets = try OggDemuxer.packets(in: bytes)
        guard let first = packets.first else { throw .truncated("Ogg Opus: the file holds no packets") }
        head = try OpusHead(parsing: first.bytes(in: bytes))
        guard packets.count >= 2 else { throw .truncated("Ogg Opus: the file ends before the OpusTags header") }
        guard first.bytes(in: bytes).count >= 19, packets[1].bytes(in: bytes).starts(with: Array("OpusTags".utf8))
        else {
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
        for packet in audioPackets where toEmit > 0 {
            let pcm = try decoder.decode(packet.bytes(in: bytes))
            let frames = pcm.count / head.channels
            let skipped = min(toSkip, frames)
            toSkip -= skipped
            let emitted = min(frames - skipped, toEmit)
            toEmit -= emitted
            guard emitted > 0 else { continue }
            let chunk = UnsafeBufferPointer(rebasing: pcm[(skipped * head.channels)..<((skipped + emitted) * head.channels)])
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
