import Foundation
@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Message codec: client frames")
struct MessageCodecTests {
    @Test("every client message type decodes from its contract form", arguments: [
        (#"{"type":"hello"}"#, ClientMessage.hello(.init())),
        (#"{"type":"hello","resumeToken":"r-1"}"#, .hello(.init(resumeToken: "r-1"))),
        (#"{"type":"hello","resumeToken":null}"#, .hello(.init())),
        (#"{"type":"permissions","camera":"granted","microphone":"denied","notifications":true}"#,
         .permissions(.init(camera: .granted, microphone: .denied, notifications: true))),
        (#"{"type":"permissions","camera":"pending","microphone":"granted"}"#,
         .permissions(.init(camera: .pending, microphone: .granted))),
        (#"{"type":"streamConfig","quality":"1080p","fps":60}"#, .streamConfig(.init(quality: .p1080, fps: .fps60))),
        (#"{"type":"streamConfig","quality":"auto","fps":120}"#, .streamConfig(.init(quality: .auto, fps: .fps120))),
        (#"{"type":"battery","level":42.5,"charging":false}"#, .battery(.init(level: 42.5, charging: false))),
        (#"{"type":"connectionTest.start"}"#, .connectionTestStart),
        (#"{"type":"probe.pong","id":7,"t":123456789}"#, .probePong(.init(id: 7, t: 123_456_789))),
        (#"{"type":"ready"}"#, .ready),
        (#"{"type":"unready"}"#, .unready),
        (#"{"type":"mute","video":true,"audio":false}"#, .mute(.init(video: true, audio: false))),
        (#"{"type":"leave"}"#, .leave),
        (#"{"type":"audio.preSkip","preSkip":312}"#, .audioPreSkip(.init(preSkip: 312))),
    ])
    func decodesEveryType(text: String, expected: ClientMessage) throws {
        #expect(try MessageCodec.decodeClientMessage(text) == expected)
    }

    @Test("unknown extra fields are ignored, so newer phones keep working")
    func extraFields() throws {
        #expect(try MessageCodec.decodeClientMessage(#"{"type":"ready","since":"v2"}"#) == .ready)
    }

    @Test("text that is not a JSON object is malformed_json", arguments: [
        "", "not json", "{", #"{"type":"ready""#, "[1,2]", #""ready""#, "42", "null", #"{"type":"ready"} x"#,
    ])
    func malformed(text: String) {
        #expect(throws: MessageDecodingError.malformedJSON) { try MessageCodec.decodeClientMessage(text) }
    }

    @Test("invalid UTF-8 is malformed_json")
    func invalidUTF8() {
        let bytes: [UInt8] = [0x7B, 0x22, 0x74, 0xFF, 0xFE, 0x22, 0x7D]
        #expect(throws: MessageDecodingError.malformedJSON) { try MessageCodec.decodeClientMessage(bytes) }
    }

    @Test("a missing type is missing_field, a non-string type invalid_field, an unknown one unknown_type")
    func typeErrors() {
        #expect(throws: MessageDecodingError.missingField("type")) { try MessageCodec.decodeClientMessage("{}") }
        #expect(throws: MessageDecodingError.invalidField("type")) {
            try MessageCodec.decodeClientMessage(#"{"type":5}"#)
        }
        #expect(throws: MessageDecodingError.unknownType("dance")) {
            try MessageCodec.decodeClientMessage(#"{"type":"dance"}"#)
        }
    }

    @Test("payload errors name the field", arguments: [
        (#"{"type":"battery","charging":true}"#, MessageDecodingError.missingField("level")),
        (#"{"type":"battery","level":"high","charging":true}"#, .invalidField("level")),
        (#"{"type":"battery","level":120,"charging":true}"#, .invalidField("level")),
        (#"{"type":"battery","level":-1,"charging":true}"#, .invalidField("level")),
        (#"{"type":"battery","level":50,"charging":"yes"}"#, .invalidField("charging")),
        (#"{"type":"permissions","camera":"maybe","microphone":"granted"}"#, .invalidField("camera")),
        (#"{"type":"permissions","camera":"granted"}"#, .missingField("microphone")),
        (#"{"type":"streamConfig","quality":"720p","fps":25}"#, .invalidField("fps")),
        (#"{"type":"streamConfig","quality":"720p","fps":30.5}"#, .invalidField("fps")),
        (#"{"type":"battery","level":1e400,"charging":true}"#, .invalidField("level")),
        (#"{"type":"streamConfig","quality":"4k","fps":30}"#, .invalidField("quality")),
        (#"{"type":"mute","video":null,"audio":false}"#, .invalidField("video")),
        (#"{"type":"probe.pong","id":1.5,"t":3}"#, .invalidField("id")),
        (#"{"type":"probe.pong","id":1,"t":1e400}"#, .invalidField("t")),
        (#"{"type":"hello","resumeToken":7}"#, .invalidField("resumeToken")),
        (#"{"type":"audio.preSkip","preSkip":65536}"#, .invalidField("preSkip")),
        (#"{"type":"audio.preSkip","preSkip":-1}"#, .invalidField("preSkip")),
        (#"{"type":"audio.preSkip"}"#, .missingField("preSkip")),
    ])
    func fieldErrors(text: String, expected: MessageDecodingError) {
        #expect(throws: expected) { try MessageCodec.decodeClientMessage(text) }
    }

    @Test("decoding errors carry the client-facing code and a message naming the field")
    func errorCodes() {
        #expect(MessageDecodingError.malformedJSON.code == "malformed_json")
        #expect(MessageDecodingError.unknownType("x").code == "unknown_type")
        #expect(MessageDecodingError.missingField("level").code == "missing_field")
        #expect(MessageDecodingError.invalidField("video.fps").apiError
            == APIError(status: 400, code: "invalid_field", message: #"Invalid value for field "video.fps""#))
        #expect(MessageDecodingError.tooLarge(limit: 16).apiError.status == 413)
    }

    @Test("frames over the size limit are refused before parsing")
    func tooLarge() {
        let text = #"{"type":"hello","resumeToken":""# + String(repeating: "a", count: MessageCodec.maxTextFrameBytes)
            + #""}"#
        #expect(throws: MessageDecodingError.tooLarge(limit: MessageCodec.maxTextFrameBytes)) {
            try MessageCodec.decodeClientMessage(text)
        }
    }

    @Test("deep nesting is refused without recursing into it")
    func deepNesting() throws {
        let text = #"{"type":"hello","x":"# + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
            + "}"
        #expect(throws: MessageDecodingError.malformedJSON) { try MessageCodec.decodeClientMessage(text) }
        let brackets = String(repeating: "[", count: 40) + #"\""#
        let inString = #"{"type":"hello","resumeToken":""# + brackets + #""}"#
        let expected = String(repeating: "[", count: 40) + "\""
        #expect(try MessageCodec.decodeClientMessage(inString) == .hello(.init(resumeToken: expected)))
    }

    @Test("random bytes and mutated messages never crash the decoder")
    func fuzz() {
        var random = SeededGenerator(seed: 42)
        let seeds = Array(#"{"type":"battery","level":50,"charging":true,"x":[1,{"y":null}]}"#.utf8)
        var decoded = 0
        for round in 0..<3000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                let count = Int.random(in: 0...64, using: &random)
                bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            } else {
                bytes = seeds
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...127, using: &random)
                }
            }
            if (try? MessageCodec.decodeClientMessage(bytes)) != nil { decoded += 1 }
        }
        #expect(decoded < 3000)
    }

    @Test("client messages encode back to the same message")
    func clientRoundTrip() throws {
        let messages: [ClientMessage] = [
            .hello(.init(resumeToken: "r")), .permissions(Fixture.granted), .streamConfig(Fixture.config),
            .battery(Fixture.fullBattery), .connectionTestStart, .probePong(.init(id: 1, t: 2)), .ready, .unready,
            .mute(.init(video: false, audio: true)), .leave, .audioPreSkip(.init(preSkip: 312)),
        ]
        for message in messages {
            let text = try MessageCodec.encodeJSON(message)
            #expect(JSON.object(text)["type"] as? String == message.kind.rawValue)
            #expect(try MessageCodec.decodeClientMessage(text) == message)
        }
    }
}
