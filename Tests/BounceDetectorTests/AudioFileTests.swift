import Foundation
import Testing
@testable import BounceDetector

@Suite("AudioFile.open(path:) reads the mapped file")
struct AudioFileTests {
    /// Writes `bytes` to a new file in the temporary directory; the caller removes it.
    private func temporaryFile(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pongd-\(UUID().uuidString)-\(name)")
        try Data(bytes).write(to: url)
        return url.path
    }

    /// The samples of `bytes` read from a file by path, and read from memory, with the sources' formats.
    private func bothWays(_ name: String, _ bytes: [UInt8]) throws -> (mapped: DecodedAudio, inMemory: DecodedAudio) {
        let path = try temporaryFile(name, bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var mapped = try AudioFile.open(path: path)
        var inMemory = try AudioFile.open(bytes: bytes)
        return (try mapped.readAll(), try inMemory.readAll())
    }

    /// Deterministic noise in [-0.5, 0.5] (a linear congruential generator), so codecs get no easy signal.
    private func noise(_ count: Int, seed: UInt32 = 1) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(state >> 8) / Float(1 << 24) - 0.5
        }
    }

    /// Opus packets of `pcm` (mono, 48 kHz, 20 ms each, the last padded) and the encoder delay.
    private func opusPackets(_ pcm: [Float], bitrate: Int) throws -> (packets: [[UInt8]], preSkip: Int) {
        let encoder = try OpusPacketEncoder(bitrate: bitrate)
        let padded = pcm + [Float](repeating: 0, count: 960 - pcm.count % 960 + 960)
        let packets = try (0..<(padded.count / 960)).map { index in
            try encoder.encode(Array(padded[(index * 960)..<((index + 1) * 960)]))
        }
        return (packets, encoder.lookahead)
    }

    /// An Ogg Opus file of `packets`, one per page, ending at `totalFrames`.
    private func oggOpus(_ packets: [[UInt8]], preSkip: Int, totalFrames: Int) -> [UInt8] {
        var writer = OggOpusWriter(channels: 1, preSkip: preSkip)
        for (index, packet) in packets.enumerated() {
            writer.append(packet: packet, frames: 960, last: index == packets.count - 1, totalFrames: totalFrames)
        }
        return writer.bytes
    }

    @Test("a WAV file opened by path gives exactly the samples of its bytes opened in memory", arguments: [
        WAVBuilder.Sample.int16, .int24, .float32,
    ])
    func wav(sample: WAVBuilder.Sample) throws {
        var builder = WAVBuilder()
        builder.channels = 2
        builder.sample = sample
        builder.extraChunks = [("LIST", Array("INFOpongd".utf8))]
        let audio = try bothWays("stereo.wav", builder.build(noise(3 * 48000 * 2)))
        #expect(audio.mapped.format == AudioFormat(sampleRate: 48000, channels: 2))
        #expect(audio.mapped.samples.count == 3 * 48000 * 2)
        #expect(audio.mapped.format == audio.inMemory.format)
        #expect(audio.mapped.samples == audio.inMemory.samples)
    }

    @Test("an Ogg Opus file opened by path gives exactly the samples of its bytes opened in memory")
    func oggOpus() throws {
        let tone = Signals.tone(1000, seconds: 1.5)
        let encoded = try opusPackets(tone, bitrate: 64000)
        let file = oggOpus(encoded.packets, preSkip: encoded.preSkip, totalFrames: tone.count)
        let audio = try bothWays("tone.opus", file)
        #expect(audio.mapped.format == AudioFormat(sampleRate: 48000, channels: 1))
        #expect(audio.mapped.samples.count == tone.count)
        #expect(audio.mapped.samples == audio.inMemory.samples)
    }

    @Test("an ADTS AAC file opened by path gives exactly the samples of its bytes opened in memory")
    func adts() throws {
        let url = try #require(Bundle.module.url(forResource: "tone1k-48k-mono", withExtension: "aac",
                                                 subdirectory: "Fixtures"))
        let audio = try bothWays("tone.aac", Array(try Data(contentsOf: url)))
        #expect(audio.mapped.format == AudioFormat(sampleRate: 48000, channels: 1))
        #expect(abs(audio.mapped.frameCount - 48000) < 2048)
        #expect(audio.mapped.samples == audio.inMemory.samples)
    }

    @Test("a packet spread over two Ogg pages decodes, by path and in memory, as it does on one page")
    func packetOverTwoPages() throws {
        let pcm = noise(48000 / 5, seed: 7)
        let encoded = try opusPackets(pcm, bitrate: 256_000)
        let first = try #require(encoded.packets.first)
        try #require(first.count > 255, "the packet must be long enough to split; it has \(first.count) bytes")
        let onePerPage = oggOpus(encoded.packets, preSkip: encoded.preSkip, totalFrames: pcm.count)
        let headers = OggOpusWriter(channels: 1, preSkip: encoded.preSkip).bytes.count
        let split = splitFirstAudioPage(onePerPage, at: headers)
        #expect(try OggDemuxer.packets(in: split)[2].segments.count == 2)

        let audio = try bothWays("split.opus", split)
        var reference = try OggOpusFile(bytes: onePerPage)
        #expect(audio.mapped.samples == audio.inMemory.samples)
        #expect(audio.mapped.samples == (try reference.readAll()).samples)
        #expect(audio.mapped.samples.count == pcm.count)
    }

    @Test("a WAV file longer than the page-release window reads the same by path as in memory")
    func longerThanReleaseWindow() throws {
        var builder = WAVBuilder()
        builder.channels = 2
        builder.sample = .float32
        let bytes = builder.build(noise(16 * 48000 * 2, seed: 3))
        try #require(bytes.count > 2 * PageReleaser.window)
        let audio = try bothWays("long.wav", bytes)
        #expect(audio.mapped.samples.count == 16 * 48000 * 2)
        #expect(audio.mapped.samples == audio.inMemory.samples)
    }

    @Test("pages given back to the kernel read the same bytes again, whatever the range")
    func releasedPagesReadAgain() throws {
        let bytes = (0..<(3 * 4096 + 123)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let path = try temporaryFile("pages.bin", bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try FileBytes(mapping: path)
        #expect(file.count == bytes.count)
        for range in [0..<bytes.count, 100..<5000, 4096..<8192, 8000..<bytes.count, 7..<7, -5..<(bytes.count + 9)] {
            #expect(file.withUnsafeBytes { Array($0) } == bytes)
            file.release(range)
            #expect(file.withUnsafeBytes { Array($0) } == bytes)
        }
        let inMemory = FileBytes(bytes)
        inMemory.release(0..<bytes.count)
        #expect(inMemory.withUnsafeBytes { Array($0) } == bytes)
    }

    @Test("the source keeps reading the mapping after the file is removed")
    func removedAfterOpening() throws {
        let bytes = WAVBuilder().build(noise(48000))
        let path = try temporaryFile("gone.wav", bytes)
        var source = try AudioFile.open(path: path)
        try FileManager.default.removeItem(atPath: path)
        var inMemory = try AudioFile.open(bytes: bytes)
        #expect(try source.readAll().samples == (try inMemory.readAll()).samples)
    }

    @Test("an empty file is truncated, \"the file is empty\"")
    func emptyFile() throws {
        let path = try temporaryFile("empty.wav", [])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: AudioError(.truncated, "the file is empty")) { try AudioFile.open(path: path) }
        #expect(throws: AudioError(.truncated, "the file is empty")) { try AudioFile.open(bytes: []) }
    }

    @Test("a missing file and a directory are io errors that name the path")
    func unreadable() throws {
        let missing = #expect(throws: AudioError.self) { try AudioFile.open(path: "/nonexistent/x.wav") }
        #expect(missing?.code == .io)
        #expect(missing?.message == "cannot read /nonexistent/x.wav: No such file or directory")

        let folder = FileManager.default.temporaryDirectory.path
        let directory = #expect(throws: AudioError.self) { try AudioFile.open(path: folder) }
        #expect(directory?.code == .io)
        #expect(directory?.message.hasPrefix("cannot read \(folder): ") == true)
    }

    /// `file` with its first audio page (at `offset`, one packet) split in two: the packet's first 255 bytes on a
    /// page of their own (no packet ends there: granule -1), the rest on a continuation page.
    private func splitFirstAudioPage(_ file: [UInt8], at offset: Int) -> [UInt8] {
        let segmentCount = Int(file[offset + 26])
        let bodyStart = offset + 27 + segmentCount
        let bodySize = file[(offset + 27)..<bodyStart].reduce(0) { $0 + Int($1) }
        let packet = Array(file[bodyStart..<(bodyStart + bodySize)])
        let flags = file[offset + 5]
        let granule = file[(offset + 6)..<(offset + 14)].enumerated().reduce(Int64(0)) {
            $0 | Int64($1.element) << (8 * Int64($1.offset))
        }
        let serial = Array(file[(offset + 14)..<(offset + 18)])
        func page(_ body: ArraySlice<UInt8>, flags: UInt8, granule: Int64, endsPacket: Bool) -> [UInt8] {
            var lacing = [UInt8](repeating: 255, count: body.count / 255)
            if endsPacket { lacing.append(UInt8(body.count % 255)) }
            var bytes = Array("OggS".utf8) + [0, flags] + withUnsafeBytes(of: granule.littleEndian, Array.init)
            bytes += serial + [0, 0, 0, 0] + [0, 0, 0, 0] + [UInt8(lacing.count)] + lacing + body
            let crc = OggCRC.checksum(bytes[...], zeroing: 22..<26)
            withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange(22..<26, with: $0) }
            return bytes
        }
        let head = page(packet[..<255], flags: 0, granule: -1, endsPacket: false)
        let tail = page(packet[255...], flags: flags | 0x01, granule: granule, endsPacket: true)
        return Array(file[..<offset]) + head + tail + Array(file[(bodyStart + bodySize)...])
    }
}
