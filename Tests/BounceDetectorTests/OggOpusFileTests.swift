import Testing
@testable import BounceDetector

@Suite("Ogg Opus reader")
struct OggOpusFileTests {
    /// An Ogg Opus file of `pcm` (mono, 48 kHz) written with our encoder and writer.
    private func makeFile(_ pcm: [Float]) throws -> [UInt8] {
        let encoder = try OpusPacketEncoder(bitrate: 64000)
        var writer = OggOpusWriter(channels: 1, preSkip: encoder.lookahead)
        let padded = pcm + [Float](repeating: 0, count: 960 - pcm.count % 960 + 960)
        let packets = padded.count / 960
        for index in 0..<packets {
            let packet = try encoder.encode(Array(padded[(index * 960)..<((index + 1) * 960)]))
            writer.append(packet: packet, frames: 960, last: index == packets - 1, totalFrames: pcm.count)
        }
        return writer.bytes
    }

    @Test("a written file reads back with exactly the encoded sample count and the tone")
    func roundTrip() throws {
        let tone = Signals.tone(1000, seconds: 0.75)
        var file = try OggOpusFile(bytes: try makeFile(tone))
        #expect(file.format == AudioFormat(sampleRate: 48000, channels: 1))
        #expect(file.frameCount == tone.count)
        let audio = try file.readAll()
        #expect(audio.samples.count == tone.count)
        let snr = Signals.snr(reference: tone, decoded: audio.samples, maxLag: 8, skip: 4800, window: 24000)
        #expect(snr > 20, "pre-skip removed the encoder delay; SNR \(snr) dB")
    }

    @Test("a packet spanning several pages is reassembled")
    func multiPagePacket() throws {
        let big = (0..<700).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var writer = OggOpusWriter(channels: 1, preSkip: 0)
        writer.append(packet: big, frames: 960, last: true)
        let packets = try OggDemuxer.packets(in: writer.bytes)
        #expect(packets.count == 3)
        #expect(packets[2].bytes(in: writer.bytes) == big)
        #expect(packets[2].isLast)
    }

    @Test("a file cut mid-page is truncated")
    func truncated() throws {
        let bytes = try makeFile(Signals.tone(440, seconds: 0.2))
        let error = #expect(throws: AudioError.self) { try OggOpusFile(bytes: Array(bytes.dropLast(5))) }
        #expect(error?.code == .truncated)
    }

    @Test("a flipped byte fails the page CRC and is reported as corrupt")
    func crcMismatch() throws {
        var bytes = try makeFile(Signals.tone(440, seconds: 0.2))
        bytes[bytes.count - 20] ^= 0x5A
        let error = #expect(throws: AudioError.self) { try OggOpusFile(bytes: bytes) }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("CRC") == true)
    }

    @Test("an Ogg stream that is not Opus, or has more than two channels, is rejected")
    func notOpus() throws {
        var writer = OggOpusWriter(channels: 1, preSkip: 0)
        writer.append(packet: [1, 2, 3], frames: 960, last: true)
        var bytes = writer.bytes
        bytes.replaceSubrange(28..<36, with: Array("Vorbis!!".utf8))
        // Re-sign the first page (27-byte header, 1 lacing byte, 19-byte OpusHead) so the magic check is what fails.
        let crc = OggCRC.checksum(bytes[0..<47], zeroing: 22..<26)
        withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange(22..<26, with: $0) }
        let notOpus = #expect(throws: AudioError.self) { try OggOpusFile(bytes: bytes) }
        #expect(notOpus?.code == .corrupt)
        #expect(notOpus?.message.contains("OpusHead") == true)

        let surround = OggOpusWriter(channels: 6, preSkip: 0)
        let error = #expect(throws: AudioError.self) { try OggOpusFile(bytes: surround.bytes) }
        #expect(error?.code == .unsupported)
    }

    @Test("a page without the OggS capture pattern is corrupt")
    func badCapture() throws {
        var bytes = try makeFile(Signals.tone(440, seconds: 0.1))
        bytes[0] = UInt8(ascii: "X")
        let error = #expect(throws: AudioError.self) { try OggDemuxer.packets(in: bytes) }
        #expect(error?.code == .corrupt)
    }
}
