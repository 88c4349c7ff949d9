import Foundation
import Testing
@testable import SessionHub

@Suite("Deadlines and connection caps against a real server (short injected limits)")
struct TransportTimeoutTests {
    private static var short: TransportLimits {
        var limits = TransportLimits()
        limits.requestHeadTimeout = .milliseconds(500)
        limits.requestBodyTimeout = .milliseconds(500)
        limits.keepAliveTimeout = .milliseconds(500)
        return limits
    }

    /// Seconds until the server closes `socket` (nil: still open after `limit`), sending `trickle` bytes meanwhile.
    private func secondsUntilClosed(_ socket: RawSocket, limit: Double = 4, trickle: Double? = nil) async throws
        -> Double?
    {
        try await blocking {
            let start = ContinuousClock.now
            var nextByte = start
            while start.duration(to: .now) < .seconds(limit) {
                if let trickle, ContinuousClock.now >= nextByte {
                    try? socket.send("X")
                    nextByte = .now + .milliseconds(Int64(trickle * 1000))
                }
                if socket.receive(timeout: .milliseconds(20)) == nil {
                    let elapsed = start.duration(to: .now)
                    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                }
            }
            return nil
        }
    }

    @Test("an idle TCP connection is closed at the head deadline")
    func idle() async throws {
        let server = try await HubTestServer.start(transport: Self.short)
        let port = server.port
        let socket = try RawSocket(port: port)
        let seconds = try #require(try await secondsUntilClosed(socket))
        #expect(seconds >= 0.4 && seconds < 1.5, "\(seconds) s, errno \(socket.lastError)")
        try await server.stop()
    }

    @Test("slowloris: a header byte every 0.1 s does not keep the connection past the head deadline")
    func slowloris() async throws {
        let server = try await HubTestServer.start(transport: Self.short)
        let port = server.port
        let socket = try RawSocket(port: port)
        try socket.send("GET /healthz HTTP/1.1\r\n")
        let seconds = try #require(try await secondsUntilClosed(socket, trickle: 0.1))
        #expect(seconds < 1.5, "\(seconds) s")
        try await server.stop()
    }

    @Test("a body that stops coming is cut at the body deadline; an idle keep-alive connection at its own")
    func bodyAndKeepAlive() async throws {
        let server = try await HubTestServer.start(transport: Self.short)
        let port = server.port
        let body = try RawSocket(port: port)
        try body.send("POST /auth/guest HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"a\":")
        let bodySeconds = try #require(try await secondsUntilClosed(body))
        #expect(bodySeconds < 1.5, "\(bodySeconds) s")

        let kept = try RawSocket(port: port)
        try kept.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try await blocking { kept.read(until: "\"ok\"}", timeout: .seconds(3)) }
        #expect(response.hasPrefix("HTTP/1.1 200"))
        let keptSeconds = try #require(try await secondsUntilClosed(kept))
        #expect(keptSeconds >= 0.3 && keptSeconds < 1.5, "\(keptSeconds) s")
        try await server.stop()
    }

    @Test("a player socket that never says hello is closed with 4005")
    func helloTimeout() async throws {
        var session = SessionState.Configuration()
        session.helloTimeout = .milliseconds(500)
        let server = try await HubTestServer.start(session: session)
        let port = server.port
        let hosted = try await server.hostSession()
        let player = try await server.joinGuest(named: "Mute", code: hosted.code)
        let path = "/sessions/\(hosted.code)/player/\(player.userId)?token=\(player.token)"
        let code = try await blocking {
            let socket = try RawWebSocket(port: port, path: path)
            return socket.closeCode(timeout: .seconds(4))
        }
        #expect(code == 4005)
        try await server.stop()
    }

    @Test("a socket that stops answering pings is closed and its seat becomes reconnecting; one that answers stays")
    func deadSocket() async throws {
        var limits = TransportLimits()
        limits.pingInterval = .milliseconds(300)
        limits.pongTimeout = .seconds(3)
        let server = try await HubTestServer.start(transport: limits)
        let port = server.port
        let hosted = try await server.hostSession()
        let deaf = try await server.joinGuest(named: "Deaf", code: hosted.code)
        let alive = try await server.joinGuest(named: "Alive", code: hosted.code)
        let live = try await TestWebSocketClient.connect(
            port: server.port, path: "/sessions/\(hosted.code)/player/\(alive.userId)?token=\(alive.token)")
        try await live.send(#"{"type":"hello"}"#)
        let path = "/sessions/\(hosted.code)/player/\(deaf.userId)?token=\(deaf.token)"
        let (sawPing, closed) = try await blocking {
            let socket = try RawWebSocket(port: port, path: path)
            try socket.send(opcode: 1, Array(#"{"type":"hello"}"#.utf8))
            var sawPing = false
            while let frame = socket.next(timeout: .seconds(10)) { if frame.opcode == 9 { sawPing = true } }
            return (sawPing, socket.socket.receive(timeout: .milliseconds(100)) == nil)
        }
        #expect(sawPing)
        #expect(closed)
        let lobby = try await server.call("GET", "/sessions/\(hosted.code)", token: hosted.hostToken)
        let players = (lobby.body["players"] as? [[String: Any]]) ?? []
        #expect(players.map { $0["connection"] as? String } == ["reconnecting", "connected"])
        try await server.stop()
    }

    @Test("connections beyond the per-address cap are closed on accept; a freed place serves again")
    func perAddressCap() async throws {
        var limits = TransportLimits()
        limits.maxConnectionsPerAddress = 3
        let server = try await HubTestServer.start(transport: limits)
        let port = server.port
        // Four at once: which one is refused depends on the event loops' order; exactly one is, at once.
        let sockets = try (0..<4).map { _ in try RawSocket(port: port) }
        let closed = try await blocking { () -> [Bool] in
            let end = ContinuousClock.now + .seconds(8)
            var closed = [Bool](repeating: false, count: sockets.count)
            while ContinuousClock.now < end, !closed.contains(true) {
                for (index, socket) in sockets.enumerated() where !closed[index] {
                    closed[index] = socket.receive(timeout: .milliseconds(10)) == nil
                }
            }
            Thread.sleep(forTimeInterval: 0.3)
            for (index, socket) in sockets.enumerated() where !closed[index] {
                closed[index] = socket.receive(timeout: .milliseconds(10)) == nil
            }
            return closed
        }
        #expect(closed.filter { $0 }.count == 1, "\(closed)")
        let held = zip(sockets, closed).filter { !$0.1 }.map(\.0)
        let refused = try await blocking {
            let again = try RawSocket(port: port)
            try again.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            return again.read(until: "\"ok\"}", timeout: .seconds(1))
        }
        #expect(!refused.hasPrefix("HTTP/1.1 200"))
        held.first?.close()
        let freed = try await blocking {
            Thread.sleep(forTimeInterval: 0.2)
            let socket = try RawSocket(port: port)
            try socket.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            return socket.read(until: "\"ok\"}", timeout: .seconds(3))
        }
        #expect(freed.hasPrefix("HTTP/1.1 200"))
        withExtendedLifetime(sockets) {}
        try await server.stop()
    }

    @Test("one user's sockets beyond the per-user cap get too_many_connections and close 4008")
    func perUserCap() async throws {
        let server = try await HubTestServer.start(maxSocketsPerUser: 2)
        let hosted = try await server.hostSession()
        let path = "/sessions/\(hosted.code)/dashboard?token=\(hosted.hostToken)"
        var open: [TestWebSocketClient] = []
        for _ in 0..<2 {
            let client = try await TestWebSocketClient.connect(port: server.port, path: path)
            #expect(await client.next(type: "welcome") != nil)
            open.append(client)
        }
        let third = try await TestWebSocketClient.connect(port: server.port, path: path)
        #expect(await third.next(type: "error")?.contains("too_many_connections") == true)
        #expect(await third.closeCode() == 4008)
        await open[0].drop()
        try await Task.sleep(for: .milliseconds(200))
        let fourth = try await TestWebSocketClient.connect(port: server.port, path: path)
        #expect(await fourth.next(type: "welcome") != nil)
        try await server.stop()
    }
}
