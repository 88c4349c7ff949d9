import Foundation
import Testing
@testable import SessionHub

/// A phone that walks the journey to ready over a real socket, answering the prober like a real phone does.
struct TestPhone {
    let server: HubTestServer
    let token: String
    let code: String
    let socket: TestWebSocketClient

    /// A media frame of the contract: kind, codec, seq, capture time, payload.
    static func frame(kind: UInt8, codec: UInt8, sequence: UInt32, bytes: Int) -> [UInt8] {
        var out: [UInt8] = [kind, codec]
        out += withUnsafeBytes(of: sequence.bigEndian, Array.init)
        out += withUnsafeBytes(of: UInt64(1_000_000).bigEndian, Array.init)
        out += [UInt8](repeating: 0x5A, count: bytes)
        return out
    }

    /// permissions → streamConfig → streams/start → first frames → battery → connection test; returns the
    /// `connectionTest` result message.
    func walkToTested() async throws -> [String: Any] {
        try await socket.send(#"{"type":"permissions","camera":"granted","microphone":"granted"}"#)
        try await socket.send(#"{"type":"streamConfig","quality":"720p","fps":30}"#)
        let start = try await server.call("POST", "/streams/start", token: token, json: """
            {"sessionCode":"\(code)","video":{"codec":"h264","quality":"720p","fps":30},
             "audio":{"codec":"opus","sampleRate":48000,"channels":1}}
            """)
        #expect(start.status == 200)
        try await socket.send(binary: Self.frame(kind: 1, codec: 1, sequence: 0, bytes: 60))
        try await socket.send(binary: Self.frame(kind: 2, codec: 1, sequence: 0, bytes: 2000))
        try await socket.send(#"{"type":"battery","level":80,"charging":false}"#)
        try await socket.send(#"{"type":"connectionTest.start"}"#)
        let sender = socket.sender
        var upload: Task<Void, any Error>?
        while let event = await socket.next() {
            guard case .text(let text) = event else { break }
            let message = jsonObject(text)
            switch message["type"] as? String {
            case "probe.ping":
                let id = message["id"] as? Int ?? -1
                let t = message["t"] as? Int ?? -1
                try await socket.send(#"{"type":"probe.pong","id":\#(id),"t":\#(t)}"#)
            case "probe.upload":
                let seconds = message["seconds"] as? Double ?? 2
                upload = Task {
                    let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
                    var sequence: UInt32 = 0
                    while ContinuousClock.now < end {
                        try await sender.send(binary: Self.frame(kind: 3, codec: 0, sequence: sequence, bytes: 32 * 1024))
                        sequence += 1
                        try await Task.sleep(for: .milliseconds(5))
                    }
                }
            case "connectionTest":
                try await upload?.value
                return message
            default:
                continue
            }
        }
        return [:]
    }
}

@Suite("End to end: readiness and host start", .serialized, .timeLimit(.minutes(1)))
struct ReadinessEndToEndTests {
    @Test("two phones run the connection test, become ready, and the host starts the game")
    func readyAndStart() async throws {
        let server = try await HubTestServer.start()
        let host = try await server.call("POST", "/auth/guest")
        let hostToken = try #require(host.body["token"] as? String)
        let created = try await server.call("POST", "/sessions", token: hostToken, json: #"{"mode":"rally","pointsToWin":11}"#)
        let code = try #require(created.body["code"] as? String)

        var phones: [TestPhone] = []
        for name in ["Ari", "Bea"] {
            let guest = try await server.call("POST", "/auth/guest")
            let token = try #require(guest.body["token"] as? String)
            let user = try #require(guest.body["userId"] as? String)
            _ = try await server.call("POST", "/users/profile", token: token, json: #"{"displayName":"\#(name)"}"#)
            _ = try await server.call("POST", "/sessions/\(code)/join", token: token)
            let socket = try await TestWebSocketClient.connect(
                port: server.port, path: "/sessions/\(code)/player/\(user)?token=\(token)")
            try await socket.send(#"{"type":"hello"}"#)
            _ = await socket.next(type: "welcome")
            phones.append(TestPhone(server: server, token: token, code: code, socket: socket))
        }

        // Ready needs a connection test: before it, `ready` is refused.
        try await phones[0].socket.send(#"{"type":"ready"}"#)
        let early = jsonObject(await phones[0].socket.next(type: "error"))
        #expect(early["code"] as? String != nil)
        #expect(try await server.call("POST", "/sessions/\(code)/start", token: hostToken).status == 409)

        for phone in phones {
            let result = try await phone.walkToTested()
            #expect(result["grade"] as? String == "good", "loopback upload is fast: \(result)")
            #expect(((result["rttMs"] as? [String: Any])?["median"] as? Double ?? 1000) < 100)
            try await phone.socket.send(#"{"type":"ready"}"#)
            var ready = false
            while let text = await phone.socket.next(type: "readiness") {
                let readiness = jsonObject(text)
                if readiness["canBeReady"] as? Bool == true {
                    ready = true
                    break
                }
            }
            #expect(ready)
        }
        let start = try await server.call("POST", "/sessions/\(code)/start", token: hostToken)
        #expect(start.status == 200)
        let lobby = try await server.call("GET", "/sessions/\(code)")
        #expect(lobby.body["state"] as? String == "playing")
        #expect((lobby.body["players"] as? [[String: Any]])?.allSatisfy { $0["ready"] as? Bool == true } == true)
        try await server.stop()
    }
}
