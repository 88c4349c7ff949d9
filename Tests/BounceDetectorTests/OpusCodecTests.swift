import Testing
@testable import BounceDetector

@Suite("Opus encoder and decoder")
struct OpusCodecTests {
    /// Encodes `pcm` in 20 ms frames and decodes every packet.
    private func roundTrip(_ pcm: [Float], channels: Int = 1, bitrate: Int = 64000) throws -> (decoded: [Float], lookahead: Int) {
        let encoder = try OpusPacketEncoder(sampleRate: 48000, channels: channels, bitrate: bitrate)
        let decoder = try OpusPacketDecoder(sampleRate: 48000, channels: channels)
        let frame = 960 * channels
        var decoded: [Float] = []
        var start = 0
        while start + frame <= pcm.count {
            let packet = try encoder.encode(Array(pcm[start..<start + frame]))
            decoded += try decoder.decode(packet)
            start += frame
        }
        return (decoded, encoder.lookahead)
    }

    @Test("a 1 kHz tone survives an encode→decode round trip with SNR above 20 dB")
    func toneRoundTrip() throws {
        let tone = Signals.tone(1000, seconds: 1)
        let (decoded, lookahead) = try roundTrip(tone)
        #expect(decoded.count == tone.count)
        let snr = Signals.snr(reference: tone, decoded: decoded, maxLag: lookahead + 480, skip: 4800, window: 24000)
        #expect(snr > 20, "SNR \(snr) dB")
    }

    @Test("stereo round trip keeps each channel's tone")
    func stereoRoundTrip() throws {
        let left = Signals.tone(700, seconds: 0.5)
        let right = Signals.tone(2100, seconds: 0.5)
        let interleaved = zip(left, right).flatMap { [$0, $1] }
        let (decoded, _) = try roundTrip(interleaved, channels: 2)
        let decodedLeft = stride(from: 0, to: decoded.count, by: 2).map { decoded[$0] }
        let decodedRight = stride(from: 1, to: decoded.count, by: 2).map { decoded[$0] }
        #expect(Signals.toneShare(decodedLeft[4800...], frequency: 700, rate: 48000) > 0.8)
        #expect(Signals.toneShare(decodedRight[4800...], frequency: 2100, rate: 48000) > 0.8)
    }

    @Test("a lost packet is concealed with exactly one packet's worth of samples")
    func concealment() throws {
        let tone = Signals.tone(440, seconds: 0.2)
        let encoder = try OpusPacketEncoder()
        let decoder = try OpusPacketDecoder()
        _ = try decoder.decode(try encoder.encode(Array(tone[0..<960])))
        let concealed = try decoder.concealLoss()
        #expect(concealed.count == 960)
        #expect(concealed.contains { $0 != 0 }, "concealment continues the tone rather than emitting silence")
        #expect(try decoder.concealLoss(frames: 480).count == 480)
    }

    @Test("an empty or garbage packet throws a codec error and the decoder keeps working")
    func badPackets() throws {
        let decoder = try OpusPacketDecoder()
        #expect(throws: AudioError.self) { try decoder.decode([UInt8]()) }
        // TOC byte 0xFF (code 3) with a frame count of 0 is invalid.
        let error = #expect(throws: AudioError.self) { try decoder.decode([0xFF, 0x00]) }
        #expect(error?.code == .codec)
        let packet = try OpusPacketEncoder().encode(Signals.tone(440, seconds: 0.02))
        #expect(try decoder.decode(packet).count == 960)
    }

    @Test("unsupported rates, channel counts and frame sizes are rejected with a message")
    func unsupportedParameters() throws {
        #expect(throws: AudioError(.unsupported, "Opus: cannot decode at 44100 Hz (8, 12, 16, 24 or 48 kHz)")) {
            try OpusPacketDecoder(sampleRate: 44100)
        }
        #expect(throws: AudioError.self) { try OpusPacketDecoder(channels: 3) }
        let encoder = try OpusPacketEncoder()
        let error = #expect(throws: AudioError.self) { try encoder.encode([Float](repeating: 0, count: 700)) }
        #expect(error?.code == .unsupported)
    }
}
