import Foundation
import Testing
@testable import SessionHub

/// Issue 12 ("Hostile clients") against a real server: oversized texts and bodies, logins, photos, origins.
@Suite("End to end: hostile clients", .serialized, .timeLimit(.minutes(2)))
struct EndToEndHostileClientTests {
    @Test("a 2 MB one-character display name is refused, and never reaches a lobby")
    func hugeDisplayName() async throws {
        let server = try await HubTestServer.start()
        let hosted = try await server.hostSession()
        let name = "a" + String(repeating: "\u{0301}", count: 1_000_000)
        let answer = try await server.call("POST", "/users/profile", token: hosted.token,
                                           json: #"{"displayName":"\#(name)"}"#)
        #expect(answer.status == 400)
        #expect((answer.body["error"] as? [String: Any])?["code"] as? String == "invalid_display_name")
        let bidi = try await server.call("POST", "/users/profile", token: hosted.token,
                                         json: #"{"displayName":"Ana\u202Egpj"}"#)
        #expect(bidi.status == 400)
        let blank = try await server.call("POST", "/users/profile", token: hosted.token,
                                          json: #"{"displayName":"\u200B\u200D"}"#)
        #expect(blank.status == 400)
        try await server.stop()
    }

    @Test("JSON bodies other than the profile's are limited to 16 KiB before parsing")
    func bodyLimit() async throws {
        let server = try await HubTestServer.start()
        let padding = String(repeating: " ", count: 20_000)
        let answer = try await server.call("POST", "/auth/login", json: #"{"email":"a@b.cd",\#(padding)"password":"x"}"#)
        #expect(answer.status == 413)
        #expect((answer.body["error"] as? [String: Any])?["code"] as? String == "payload_too_large")
        try await server.stop()
    }
}
