import Foundation
import Testing
@testable import SessionHub

/// Graceful shutdown (issue 13, item 4) and dead-phone detection (item 5) over real sockets: raw clients read what
/// the server actually sends, close frames included.
@Suite("Graceful shutdown and liveness end to end", .serialized, .timeLimit(.minutes(1)))
struct GracefulShutdownTests {
    /// A raw player socket that said hello and got its welcome.
    private static func greetedSocket(port: Int, path: String) throws -> RawWebSocket {
        let socket = try RawWebSocket(port: port, path: path)
        try socket.send(opcode: 1, Array(#"{"type":"hello"}"#.utf8))
        while let frame = socket.next(timeout: .seconds(5)), !frame.text.contains(#""type":"welcome""#) {}
        return socket
    }

    /// Reads frames until the close frame; answers it as a client must; returns its code, its reason and whether
    /// the connection then ended in an orderly way (EOF, not a reset).
    private static func readClose(_ socket: RawWebSocket) -> (code: UInt16?, reason: String, orderly: Bool) {
        while let frame = socket.next(timeout: .seconds(5)) {
            guard frame.opcode == 8 else { continue }
            try? socket.send(opcode: 8, Array(frame.payload.prefix(2)))
            let ended = socket.socket.readUntilClosed(timeout: .seconds(3))
            return (frame.closeCode, String(decoding: frame.payload.dropFirst(2), as: UTF8.self),
                    ended.closed && socket.socket.lastError == 0)
        }
        return (nil, "", false)
    }

    @Test("stop: every socket reads close 4100 with its retry hint, a request in flight is answered, idle connections close")
    func drain() async throws {
        var limits = TransportLimits()
        limits.drainTimeout = .seconds(5)
        let server = try await HubTestServer.start(transport: limits)
        let port = server.port
        let hosted = try await server.hostSession()
        var paths = ["/sessions/\(hosted.code)/dashboard?token=\(hosted.hostToken)"]
        for name in ["Ana", "Bo"] {
            let player = try await server.joinGuest(named: name, code: hosted.code)
            paths.append("/sessions/\(hosted.code)/player/\(player.userId)?token=\(player.token)")
        }
        let sockets = try await blocking { [paths] in
            try paths.enumerated().map { index, path in
                index == 0 ? try RawWebSocket(port: port, path: path) : try Self.greetedSocket(port: port, path: path)
            }
        }
        // A keep-alive connection after its answer, and one whose request is half sent.
        let idle = try RawSocket(port: port)
        try idle.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(idle.read(until: "ok", timeout: .seconds(3)).hasPrefix("HTTP/1.1 200"))
        let inFlight = try RawSocket(port: port)
        try inFlight.send("POST /auth/guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{")
        try await Task.sleep(for: .milliseconds(200))

        let started = ContinuousClock.now
        let stopping = Task { try await server.stop() }
        let closes = try await blocking { sockets.map(Self.readClose) }
        for close in closes {
            #expect(close.code == 4100)
            #expect(close.reason == "server restarting; retry in 1 s")
            #expect(close.orderly, "the close frame came before an orderly end, not a reset")
        }
        #expect(idle.readUntilClosed(timeout: .seconds(3)).closed, "an idle keep-alive connection is closed")
        try inFlight.send("}")
        let answer = try await blocking { inFlight.readUntilClosed(timeout: .seconds(3)) }
        let text = String(decoding: answer.bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 201") && text.lowercased().contains("connection: close"), "\(text)")
        #expect(answer.closed)
        try await stopping.value
        #expect(started.duration(to: .now) < .seconds(5))
    }

    @Test("stop ends within the drain timeout whatever clients do: a socket that never reads, a request never finished")
    func stubbornClients() async throws {
        var limits = TransportLimits()
        limits.drainTimeout = .seconds(2)
        let server = try await HubTestServer.start(transport: limits)
        let port = server.port
        let hosted = try await server.hostSession()
        let player = try await server.joinGuest(named: "Deaf", code: hosted.code)
        let path = "/sessions/\(hosted.code)/player/\(player.userId)?token=\(player.token)"
        let deaf = try await blocking { try Self.greetedSocket(port: port, path: path) }
        let stuck = try RawSocket(port: port)
        try stuck.send("POST /auth/guest HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        try await Task.sleep(for: .milliseconds(200))
        let started = ContinuousClock.now
        try await server.stop()
        let elapsed = started.duration(to: .now)
        #expect(elapsed < .seconds(2), "\(elapsed)")
        #expect(deaf.closeCode(timeout: .seconds(1)) == 4100, "the close frame waited in its buffer")
        #expect(stuck.readUntilClosed(timeout: .seconds(1)).closed)
    }

    @Test("a close pongd starts reaches a client that keeps sending as a close frame, not a reset (4008 flood)")
    func closeFrameBeforeReset() async throws {
        let server = try await HubTestServer.start()
        let port = server.port
        let hosted = try await server.hostSession()
        let player = try await server.joinGuest(named: "Loud", code: hosted.code)
        let path = "/sessions/\(hosted.code)/player/\(player.userId)?token=\(player.token)"
        let socket = try await blocking { try Self.greetedSocket(port: port, path: path) }
        // Far over the text limit (60 at once), and still sending for 0.8 s while the server closes. A server that
        // closed with input still coming would answer it with a reset (the client's sends fail), and a reset can
        // throw away the close frame waiting in the client's receive buffer; a draining one reads and drops it.
        let refused = try await blocking { () -> Bool in
            let frame = RawWebSocket.frame(opcode: 1, Array(#"{"type":"battery","level":80,"charging":false}"#.utf8))
            let batch = Array([[UInt8]](repeating: frame, count: 50).joined())
            let end = ContinuousClock.now + .milliseconds(800)
            while ContinuousClock.now < end {
                do { try socket.send(batch) } catch { return true }
                Thread.sleep(forTimeInterval: 0.005)
            }
            return false
        }
        #expect(!refused, "the server kept reading while it closed: no reset")
        let close = try await blocking { Self.readClose(socket) }
        #expect(close.code == 4008)
        #expect(close.orderly, "the close frame came before an orderly end, not a reset")
        try await server.stop()
    }

    @Test("a phone that stops answering pings is reconnecting within ping interval + pong timeout; its grace starts then")
    func vanishedPhone() async throws {
        var limits = TransportLimits()
        limits.pingInterval = .milliseconds(400)
        limits.pongTimeout = .milliseconds(600)
        var session = SessionState.Configuration()
        session.gracePeriod = .milliseconds(1500)
        let server = try await HubTestServer.start(session: session, transport: limits)
        let port = server.port
        let hosted = try await server.hostSession()
        let alive = try await server.joinGuest(named: "Alive", code: hosted.code)
        let gone = try await server.joinGuest(named: "Gone", code: hosted.code)
        let observer = try await TestWebSocketClient.connect(
            port: port, path: "/sessions/\(hosted.code)/player/\(alive.userId)?token=\(alive.token)")
        try await observer.send(#"{"type":"hello"}"#)
        let path = "/sessions/\(hosted.code)/player/\(gone.userId)?token=\(gone.token)"
        // Says hello, then neither reads nor answers, and keeps the connection open (no FIN): a phone out of range.
        let silent = try await blocking { try Self.greetedSocket(port: port, path: path) }
        let vanished = ContinuousClock.now
        func gonePlayer(_ text: String) -> [String: Any]? {
            (jsonObject(text)["players"] as? [[String: Any]] ?? []).first { $0["name"] as? String == "Gone" }
        }
        _ = await observer.next { $0.contains(#""type":"lobby""#) && gonePlayer($0)?["connection"] as? String == "connected" }
        _ = await observer.next { $0.contains(#""type":"lobby""#) && gonePlayer($0)?["connection"] as? String == "reconnecting" }
        let reconnecting = vanished.duration(to: .now)
        _ = await observer.next { $0.contains(#""type":"lobby""#) && gonePlayer($0) == nil }
        let freed = vanished.duration(to: .now)
        #expect(reconnecting >= .milliseconds(900) && reconnecting < .milliseconds(1800), "\(reconnecting)")
        #expect(freed - reconnecting >= .milliseconds(1400) && freed - reconnecting < .milliseconds(2500),
                "the grace period started when the lobby showed it reconnecting: \(freed - reconnecting)")
        silent.socket.close()
        try await server.stop()
    }
}
