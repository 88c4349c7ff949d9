import Foundation
import Testing
@testable import SessionHub

/// The connection test on links faster than the socket's frame limit (issue 13, item 2): filler sent as fast as the
/// socket takes it, in frames from 1 KiB to 256 KiB, never closes the socket and reads as a fast link; a test that
/// cannot finish ends with `connectionTest {failure}`.
@Suite("Connection test on fast links")
struct FastLinkTests {
    @Test("unpaced filler of any frame size keeps the socket open and grades the link good",
          arguments: [1024, 16 * 1024, 256 * 1024])
    func unpacedFiller(frameBytes: Int) async throws {
        let (server, code, token, user) = try await Self.joinedGuest()
        let socket = try RawWebSocket(port: server.port, path: "/sessions/\(code)/player/\(user)?token=\(token)")
        try socket.send(opcode: 1, Array(#"{"type":"hello"}"#.utf8))
        try socket.send(opcode: 1, Array(#"{"type":"connectionTest.start"}"#.utf8))
        // Many frames in one write, as a phone's socket flushes them on a fast link: far above 2000 frames a second.
        let frame = RawWebSocket.frame(opcode: 2, TestPhone.frame(kind: 3, codec: 0, sequence: 1, bytes: frameBytes - 14))
        let burst = Array([[UInt8]](repeating: frame, count: max(1, 256 * 1024 / frameBytes)).joined())
        var result: [String: Any] = [:]
        let writing = NSLock()  // one writer at a time: a pong must not land inside a filler frame
        while let reply = socket.next(timeout: .seconds(10)) {
            guard reply.opcode == 1 else {
                Issue.record("socket closed during the test: opcode \(reply.opcode), close \(reply.closeCode ?? 0)")
                break
            }
            let message = jsonObject(reply.text)
            switch message["type"] as? String {
            case "probe.ping":
                let pong = #"{"type":"probe.pong","id":\#(message["id"] as? Int ?? -1),"t":\#(message["t"] as? Int ?? -1)}"#
                try writing.withLock { try socket.send(opcode: 1, Array(pong.utf8)) }
            case "probe.upload":
                let thread = Thread {
                    let end = ContinuousClock.now + .seconds(2)
                    while ContinuousClock.now < end, (try? writing.withLock { try socket.send(burst) }) != nil {}
                }
                thread.start()
            case "connectionTest":
                result = message
            default:
                continue
            }
            if !result.isEmpty { break }
        }
        #expect(result["failure"] == nil, "\(result)")
        #expect(result["grade"] as? String == "good", "\(result)")
        #expect((result["uploadMbps"] as? Double ?? 0) > 5)
        // The socket is still open and usable: another test starts.
        try socket.send(opcode: 1, Array(#"{"type":"connectionTest.start"}"#.utf8))
        var pinged = false
        while !pinged, let next = socket.next(), next.opcode == 1 { pinged = next.text.contains("probe.ping") }
        #expect(pinged)
    }

    @Test("a test without filler ends with connectionTest {failure: no_filler}, not silence")
    func noFiller() async throws {
        let (_, phone) = try await Self.greetedPhone()
        try await phone.socket.send(#"{"type":"connectionTest.start"}"#)
        var result: [String: Any] = [:]
        while let event = await phone.socket.next() {
            guard case .text(let text) = event else { break }
            let message = jsonObject(text)
            if message["type"] as? String == "probe.ping" {
                try await phone.socket.send(#"{"type":"probe.pong","id":\#(message["id"] as? Int ?? -1),"t":\#(message["t"] as? Int ?? -1)}"#)
            }
            if message["type"] as? String == "connectionTest" {
                result = message
                break
            }
        }
        #expect(result["failure"] as? String == "no_filler")
        #expect(result["message"] as? String == "Connection error, please try again")
        #expect(result["grade"] == nil)
    }

    /// A server, a session, and one guest who joined it.
    private static func joinedGuest() async throws -> (HubTestServer, code: String, token: String, user: String) {
        let server = try await HubTestServer.start()
        let session = try await server.hostSession()
        let (token, user) = try await server.joinGuest(named: "Fay", code: session.code)
        return (server, session.code, token, user)
    }

    /// A server, a session, and one guest phone whose socket said hello.
    private static func greetedPhone() async throws -> (HubTestServer, TestPhone) {
        let (server, code, token, user) = try await joinedGuest()
        let socket = try await TestWebSocketClient.connect(
            port: server.port, path: "/sessions/\(code)/player/\(user)?token=\(token)")
        try await socket.send(#"{"type":"hello"}"#)
        _ = await socket.next(type: "welcome")
        return (server, TestPhone(server: server, token: token, code: code, socket: socket))
    }
}
