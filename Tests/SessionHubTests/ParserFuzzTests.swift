@testable import PongWire
import Testing
@testable import SessionHub

/// SessionHub's parsers under seeded mutation of the committed seeds (`Fuzz/Corpus/`, `MutationFuzzer`): every
/// input is answered with a value or a documented error, never a trap, and round-trips where an encoder exists
/// (`ParserProperties`). `.ci/fuzz` reruns this suite for a time budget per target (docs/SECURITY.md, "Fuzzing").
@Suite("Parser fuzzing", .serialized)
struct ParserFuzzTests {
    /// JSON tokens, field names and values the client messages use.
    private static let jsonTokens = ([
        "{", "}", "[", "]", "\"", ":", ",", "null", "true", "false", "-0", "1e400", "1.5", "-1", "9223372036854775808",
        "\\u0000", "\\ud800", "\\\"", "\"type\"", "\"hello\"", "\"resumeToken\"", "\"permissions\"", "\"camera\"",
        "\"granted\"", "\"streamConfig\"", "\"quality\"", "\"fps\"", "\"battery\"", "\"level\"", "\"charging\"",
        "\"probe.pong\"", "\"id\"", "\"t\"", "\"mute\"", "\"video\"", "\"audio\"", "\"audio.preSkip\"", "\"preSkip\"",
        "\u{00E9}", "\u{FEFF}",
    ] as [String]).map { Array($0.utf8) }
    /// Annex-B start codes before an SPS, a PPS and an IDR slice.
    private static let h264Tokens: [[UInt8]] = [[0, 0, 1], [0, 0, 1, 0x67], [0, 0, 1, 0x68], [0, 0, 1, 0x65]]
    /// PNG chunk types and JPEG markers (EOI, SOS, SOF0, DRI).
    private static let photoTokens: [[UInt8]] = ["IHDR", "PLTE", "IDAT", "IEND"].map { Array($0.utf8) }
        + [[0xFF, 0xD9], [0xFF, 0xDA], [0xFF, 0xC0], [0xFF, 0xDD]]

    @Test("media frames: a documented MediaFrameError, or a frame that re-encodes to the same bytes")
    func mediaFrames() throws {
        #expect(try MutationFuzzer.run("media-frame", check: ParserProperties.mediaFrame) == nil)
    }

    @Test("client messages: a documented decoding error, or a message that round-trips through the encoder")
    func clientMessages() throws {
        #expect(try MutationFuzzer.run("client-message", dictionary: Self.jsonTokens,
                                       check: ParserProperties.clientMessage) == nil)
    }

    @Test("the client-message seeds hold every message type, so a new type is fuzzed from its contract form")
    func everyTypeSeeded() throws {
        let seeds = try MutationFuzzer.corpus("client-message").compactMap { try? MessageCodec.decodeClientMessage($0) }
        #expect(Set(seeds.map(\.kind)) == Set(ClientMessage.Kind.allCases))
    }

    @Test("H.264 access units: a positive size from an SPS, or none; one parser survives every input")
    func h264() throws {
        let parser = try #require(H264ResolutionParser())
        #expect(try MutationFuzzer.run("h264", dictionary: Self.h264Tokens) {
            ParserProperties.h264($0, parser: parser)
        } == nil)
    }

    @Test("VP8 frame headers: none, or a key frame's size within 14 bits")
    func vp8() throws {
        #expect(try MutationFuzzer.run("vp8", check: ParserProperties.vp8) == nil)
    }

    @Test("profile photos (PNG CRCs repaired): a documented photo error, or a sanitized photo that is stable")
    func photos() throws {
        #expect(try MutationFuzzer.run("photo", dictionary: Self.photoTokens, repair: ChecksumRepair.png,
                                       check: ParserProperties.photo) == nil)
    }
}
