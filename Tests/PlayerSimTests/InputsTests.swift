import Foundation
@testable import PongClient
import Testing
import BounceDetector
@testable import pong_player_sim

@Suite("Inputs: labels, server URL, Opus packets, audio files")
struct InputsTests {
    @Test("durations from the server (Retry-After, probe.upload) never trap the clock: infinite is 0, huge is clamped")
    func serverDurations() {
        let now = MonoTime.seconds(100)
        #expect(now.adding(seconds: .infinity) == now)
        #expect(now.adding(seconds: .nan) == now)
        #expect(now.adding(seconds: 1e20) == MonoTime.seconds(100 + 1e6))
        #expect(now.adding(seconds: -1e20) == MonoTime(nanoseconds: 0))
        #expect(now.adding(seconds: 2.5) == MonoTime.seconds(102.5))
    }

    @Test("Retry-After: delta-seconds, a huge one capped at an hour (not dropped for the 1 s default), junk ignored")
    func retryAfter() {
        #expect(HTTPClient.retryAfter("7") == 7)
        #expect(HTTPClient.retryAfter("0.5") == 0.5)
        #expect(HTTPClient.retryAfter("3600") == 3600)
        #expect(HTTPClient.retryAfter("86400") == 3600)
        #expect(HTTPClient.retryAfter("inf") == 3600)
        #expect(HTTPClient.retryAfter(nil) == nil)
        #expect(HTTPClient.retryAfter("-1") == nil)
        #expect(HTTPClient.retryAfter("nan") == nil)
        #expect(HTTPClient.retryAfter("Wed, 21 Oct 2026 07:28:00 GMT") == nil)
    }

    @Test("labels CSV as gen_corpus.py writes it")
    func labels() throws {
        let labels = try Labels(csv: "time_s,type,gain_db\n1.618268,bounce,-5.5\n1.392418,hit,-3.5\n")
        #expect(labels.labels == [.init(time: 1.392418, type: "hit"), .init(time: 1.618268, type: "bounce")])
        let plain = try Labels(csv: "type,time\r\nbounce,0.5\r\n")
        #expect(plain.labels == [.init(time: 0.5, type: "bounce")])
        #expect(throws: SimError.self) { try Labels(csv: "when,what\n1,2\n") }
        #expect(throws: SimError.self) { try Labels(csv: "time_s,type\nsoon,bounce\n") }
    }

    @Test("the server URL gives host and port")
    func server() throws {
        let address = try ServerAddress(parsing: "http://127.0.0.1:18080/")
        #expect(address == ServerAddress(host: "127.0.0.1", port: 18080))
        #expect(try ServerAddress(parsing: "localhost").port == 80)
        #expect(throws: SimError.self) { try ServerAddress(parsing: "https://x:1") }
        #expect(throws: SimError.self) { try ServerAddress(parsing: "http://x:port") }
    }

    @Test("Opus packet durations from the TOC byte")
    func opusDurations() {
        #expect(OpusPacketDuration.samples([0xFC, 0xFF]) == 960)  // CELT FB 20 ms, one frame
        #expect(OpusPacketDuration.samples([0x78]) == 960)  // Hybrid FB 20 ms
        #expect(OpusPacketDuration.samples([0x09]) == 1920)  // SILK NB 40 ms
        #expect(OpusPacketDuration.samples([0xFD]) == 1920)  // two 20 ms frames
        #expect(OpusPacketDuration.samples([0xFF, 0x03]) == 2880)  // code 3, three frames
        #expect(OpusPacketDuration.samples([]) == nil)
    }

    @Test("a WAV is encoded to 20 ms packets covering the file and the encoder delay")
    func wav() throws {
        let frames = 48000 / 2  // 0.5 s
        let pcm = (0..<frames).map { Int16(8000 * sin(Double($0) * 2 * .pi * 440 / 48000)) }
        let track = try AudioTrack.fromWAV(Self.wav(pcm), bitrate: 24000)
        #expect(track.channels == 1)
        #expect(track.preSkip > 0)
        #expect(track.loopSamples % 960 == 0 && track.loopSamples >= frames + track.preSkip)
        #expect(track.packets.allSatisfy { $0.samples == 960 && !$0.bytes.isEmpty })
        #expect(track.packets.map(\.start) == (0..<track.packets.count).map { $0 * 960 })
    }

    @Test("an Ogg Opus file's packets are taken as they are, with its pre-skip")
    func oggOpus() throws {
        // Two seconds of a tone, written with BounceDetector's encoder and Ogg writer.
        let encoder = try OpusPacketEncoder(bitrate: 24000)
        var writer = OggOpusWriter(channels: 1, preSkip: encoder.lookahead)
        var encoded: [[UInt8]] = []
        for index in 0..<100 {
            let pcm = (0..<960).map { Float(0.3 * sin(2 * Double.pi * 440 * Double(index * 960 + $0) / 48000)) }
            encoded.append(try encoder.encode(pcm))
            writer.append(packet: encoded[index], frames: 960, last: index == 99)
        }
        let track = try AudioTrack.fromOggOpus(writer.bytes)
        #expect(track.preSkip == encoder.lookahead && track.channels == 1)
        #expect(track.packets.map(\.bytes) == encoded)
        #expect(track.packets.allSatisfy { $0.samples == 960 })
        #expect(abs(track.loopSeconds - 2) < 0.05)
        // A flipped byte in a page fails its CRC: a clear error, not garbage.
        var corrupt = writer.bytes
        corrupt[corrupt.count - 10] ^= 0xFF
        #expect(throws: SimError.self) { try AudioTrack.fromOggOpus(corrupt) }
    }

    @Test("every tenth phone signs up, every third sends a photo")
    func identities() {
        let phones = (0..<20).map { PhoneIdentity.make(index: $0, runTag: "r") }
        #expect(phones.filter(\.signUp).map(\.index) == [9, 19])
        #expect(phones.filter { $0.photo != nil }.count == 7)
        #expect(Set(phones.map(\.email)).count == 20)
    }

    /// A 48 kHz mono 16-bit WAV.
    static func wav(_ samples: [Int16]) -> [UInt8] {
        func le32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
        func le16(_ v: UInt16) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
        let data = samples.flatMap { le16(UInt16(bitPattern: $0)) }
        var out = Array("RIFF".utf8) + le32(UInt32(36 + data.count)) + Array("WAVE".utf8)
        out += Array("fmt ".utf8) + le32(16) + le16(1) + le16(1) + le32(48000) + le32(96000) + le16(2) + le16(16)
        out += Array("data".utf8) + le32(UInt32(data.count)) + data
        return out
    }
}
