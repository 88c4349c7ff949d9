import Foundation
import Testing
@testable import BounceDetector

@Suite("AAC ADTS decoding")
struct AACDecoderTests {
    /// 1 s of a 1 kHz sine, 48 kHz mono AAC-LC, made once with
    /// `ffmpeg -f lavfi -i sine=frequency=1000:duration=1 -ar 48000 -ac 1 -c:a aac -b:a 48k`.
    private func fixture(_ name: String = "tone1k-48k-mono") throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "aac", subdirectory: "Fixtures"))
        return Array(try Data(contentsOf: url))
    }

    @Test("the committed fixture decodes to about a second of 1 kHz tone at 48 kHz mono")
    func decodesFixture() throws {
        var file = try ADTSFile(bytes: try fixture())
        #expect(file.format == AudioFormat(sampleRate: 48000, channels: 1))
        let audio = try file.readAll()
        #expect(abs(audio.frameCount - 48000) < 2048)
        #expect(Signals.toneShare(audio.samples[4800..<40000], frequency: 1000, rate: 48000) > 0.9)
    }

    @Test("frame splitting finds every ADTS frame and a cut last frame is reported as truncated")
    func truncatedFile() throws {
        let bytes = try fixture()
        let frames = try ADTSHeader.frames(in: bytes)
        #expect(frames.count > 40)
        #expect(frames.last?.upperBound == bytes.count)
        let error = #expect(throws: AudioError.self) { try ADTSHeader.frames(in: Array(bytes.dropLast(10))) }
        #expect(error?.code == .truncated)
    }

    @Test("a frame without the ADTS sync word is corrupt; the decoder stays usable afterwards")
    func corruptFrame() throws {
        let bytes = try fixture()
        let frames = try ADTSHeader.frames(in: bytes)
        let decoder = try AACFrameDecoder()
        var broken = Array(bytes[frames[1]])
        broken[0] = 0x12
        let error = #expect(throws: AudioError.self) { try decoder.decode(broken) }
        #expect(error?.code == .corrupt)
        _ = try decoder.decode(Array(bytes[frames[0]]))
        #expect(try decoder.decode(Array(bytes[frames[1]])).count == 1024)
        #expect(decoder.sampleRate == 48000 && decoder.channels == 1)
    }

    /// The fixture with its first header claiming channel configuration 5 (one bit flipped, as fuzz-adts found it):
    /// libavcodec decodes that frame to 5 channels and the next ones, whose headers say 1, to one.
    private func lyingHeader() throws -> [UInt8] {
        var bytes = try fixture()
        bytes[2] |= 0x01
        bytes[3] = bytes[3] & 0x3F | 0x40
        return bytes
    }

    @Test("a frame that decodes to other channels than the first is unsupported, not a chunk that splits frames")
    func channelsChangeAfterFirstFrame() throws {
        var file = try ADTSFile(bytes: try lyingHeader())
        #expect(file.format == AudioFormat(sampleRate: 48000, channels: 5))
        let error = #expect(throws: AudioError.self) { try file.readAll() }
        #expect(error?.code == .unsupported)
    }

    /// Three frames of the 48 kHz mono fixture, then 30 ms of 44.1 kHz stereo (ffmpeg's `aac`, 32 kb/s).
    private func formatChange() throws -> [UInt8] {
        let mono = try fixture()
        let frames = try ADTSHeader.frames(in: mono)
        return Array(mono[..<frames[2].upperBound]) + (try fixture("tone1k-44k-stereo-30ms"))
    }

    @Test("a file whose frames change rate or channels is unsupported, not handed out under the first format")
    func formatChangeIsUnsupported() throws {
        var file = try ADTSFile(bytes: try formatChange())
        let error = #expect(throws: AudioError.self) { try file.readAll() }
        #expect(error?.code == .unsupported)
    }
}
