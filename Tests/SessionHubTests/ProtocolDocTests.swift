import Foundation
@testable import PongWire
import Testing
@testable import SessionHub

@Suite("docs/PROTOCOL.md stays true to the code")
struct ProtocolDocTests {
    private func protocolText() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
    }

    @Test("every error code has a row with its status; fixed messages appear verbatim")
    func errorCodes() throws {
        let text = try protocolText()
        for error in APIError.all {
            #expect(text.contains("| \(error.status) | `\(error.code)` |"), "\(error.code)")
            // The transport's own rows describe the case instead of quoting the message; the others are parameterised.
            let parameterized = ["not_found", "method_not_allowed", "payload_too_large", "internal",
                                 "unknown_type", "missing_field", "invalid_field", "out_of_order", "not_ready",
                                 "frame_too_short", "unknown_frame_kind", "empty_payload", "unknown_codec",
                                 "codec_mismatch", "undecodable_media"]
            if !parameterized.contains(error.code) {
                #expect(text.contains("| \(error.message) |"), "\(error.code): \(error.message)")
            }
        }
    }

    @Test("every close code is listed")
    func closeCodes() throws {
        let text = try protocolText()
        for code in [CloseCode.sessionEnded, .authFailed, .left, .notJoined, .replaced, .helloTimeout, .flooded,
                     .tooManySockets, .serverRestarting, .moved(to: "x"), .protocolError, .invalidPayload,
                     .outputOverflow, .messageTooBig, .noPong, .tooManyCodeGuesses(retryAfter: 3)] {
            #expect(text.contains("| \(code.code) |"), "\(code.code)")
        }
        #expect(text.contains("`\(CloseCode.serverRestarting.reason)`"), "4100's reason with its retry hint")
    }

    @Test("every message type is listed")
    func messageTypes() throws {
        let text = try protocolText()
        for kind in ClientMessage.Kind.allCases { #expect(text.contains("`\(kind.rawValue)`"), "\(kind.rawValue)") }
        for kind in ServerMessage.Kind.allCases { #expect(text.contains("`\(kind.rawValue)`"), "\(kind.rawValue)") }
    }

    @Test("every readiness check text is in the readiness table")
    func readinessTexts() throws {
        let text = try protocolText()
        let tableStart = try #require(text.range(of: "### Readiness checks"))
        let table = text[tableStart.upperBound...]
        var inputs: [Readiness.Input] = []
        for camera in PermissionStatus.allCases {
            for state in MediaState.allCases {
                for without in [false, true] {
                    var input = Readiness.Input(displayName: nil)
                    input.camera = camera
                    input.microphone = camera
                    input.video = state
                    input.audio = state
                    input.withoutVideo = without
                    input.withoutAudio = without
                    inputs.append(input)
                }
            }
        }
        for test in [Fixture.goodTest, Fixture.fairTest, Fixture.poorTest, Fixture.slowTest] {
            var input = Readiness.Input(displayName: "Ana")
            input.connectionTest = test
            input.battery = .init(level: 15, charging: false)
            inputs.append(input)
            input.connectionTestAge = .seconds(900)
            input.battery = .init(level: 15, charging: true)
            inputs.append(input)
            input.battery = .init(level: 80, charging: false)
            inputs.append(input)
        }
        for input in inputs {
            for check in Readiness.evaluate(input).checks {
                #expect(table.contains(check.message), "\(check.id): \(check.message)")
            }
        }
    }
}
