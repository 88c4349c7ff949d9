import Testing
@testable import BounceDetector

@Suite("WAV reader")
struct WAVFileTests {
    private let ramp: [Float] = (0..<1000).map { Float($0 - 500) / 600 }

    @Test("PCM 16/24/32-bit and float 32-bit decode to the samples written", arguments: [
        WAVBuilder.Sample.int16, .int24, .int32, .float32,
    ])
    func encodings(sample: WAVBuilder.Sample) throws {
        var builder = WAVBuilder()
        builder.sample = sample
        var file = try WAVFile(bytes: builder.build(ramp), chunkFrames: 77)
        let audio = try file.readAll()
        #expect(audio.format == AudioFormat(sampleRate: 48000, channels: 1))
        #expect(audio.samples.count == ramp.count)
        let tolerance: Float = sample == .int16 ? 1.0 / 16000 : 1e-6
        #expect(zip(audio.samples, ramp).allSatisfy { abs($0 - $1) <= tolerance })
    }

    @Test("stereo, 44.1 kHz and WAVE_FORMAT_EXTENSIBLE headers are read, unknown chunks skipped")
    func extensibleStereo() throws {
        var builder = WAVBuilder()
        builder.rate = 44100
        builder.channels = 2
        builder.sample = .int24
        builder.extensible = true
        builder.extraChunks = [("LIST", Array("INFOpongd".utf8))]
        var file = try WAVFile(bytes: builder.build(ramp))
        #expect(file.format == AudioFormat(sampleRate: 44100, channels: 2))
        #expect(file.frameCount == 500)
        #expect(try file.readAll().samples.count == 1000)
    }

    @Test("a file cut inside its data chunk is truncated, with the sizes in the message")
    func truncated() throws {
        let bytes = WAVBuilder().build(ramp)
        let error = #expect(throws: AudioError.self) { try WAVFile(bytes: Array(bytes.dropLast(101))) }
        #expect(error?.code == .truncated)
        #expect(error?.message.contains("declares 2000 bytes") == true)
        #expect(throws: AudioError.self) { try WAVFile(bytes: Array(bytes.prefix(30))) }
        #expect(throws: AudioError.self) { try WAVFile(bytes: []) }
    }

    @Test("wrong magic, missing fmt and zero channels are corrupt")
    func corrupt() throws {
        var bytes = WAVBuilder().build(ramp)
        bytes[8] = UInt8(ascii: "X")
        #expect(throws: AudioError(.corrupt, "WAV: RIFF form is not WAVE")) { try WAVFile(bytes: bytes) }

        var noFormat = WAVBuilder().build(ramp)
        noFormat.replaceSubrange(12..<16, with: Array("junk".utf8))
        let error = #expect(throws: AudioError.self) { try WAVFile(bytes: noFormat) }
        #expect(error?.code == .corrupt)

        var zeroChannels = WAVBuilder().build(ramp)
        zeroChannels.replaceSubrange(22..<24, with: [0, 0])
        #expect(throws: AudioError(.corrupt, "WAV: fmt chunk declares 0 channels")) { try WAVFile(bytes: zeroChannels) }
    }

    @Test("8-bit PCM is reported as unsupported")
    func unsupported() throws {
        var builder = WAVBuilder()
        builder.sample = .int8
        let error = #expect(throws: AudioError.self) { try WAVFile(bytes: builder.build(ramp)) }
        #expect(error?.code == .unsupported)
    }

    @Test("AudioFile.open picks the reader by magic bytes and rejects other content")
    func openByMagic() throws {
        #expect(try AudioFile.open(bytes: WAVBuilder().build(ramp)) is WAVFile)
        #expect(throws: AudioError.self) { try AudioFile.open(bytes: Array("hello, world".utf8)) }
        let error = #expect(throws: AudioError.self) { try AudioFile.open(path: "/nonexistent/x.wav") }
        #expect(error?.code == .io)
    }
}
