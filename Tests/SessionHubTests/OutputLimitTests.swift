import Foundation
@testable import PongWire
import Testing
@testable import SessionHub

@Suite("A peer that never reads: pongs are coalesced, queued output is bounded, the socket is closed")
struct OutputLimitTests {
    @Test("a ping flood from a peer that never reads costs a pong at a time; the server's memory stays flat")
    func pingFlood() async throws {
        var limits = TransportLimits()
        limits.pingInterval = .seconds(3600)  // the flooder never answers the server's own pings
        let server = try await HubTestServer.start(transport: limits)
        let port = server.port
        let hosted = try await server.hostSession()
        let path = "/sessions/\(hosted.code)/dashboard?token=\(hosted.hostToken)"
        let before = residentBytes()
        let pings = 100_000
        let (received, after) = try await blocking {
            let socket = try RawWebSocket(port: port, path: path, receiveBuffer: 4096)
            let ping = RawWebSocket.frame(opcode: 9, [UInt8](repeating: 7, count: 125))
            let batch = Array([[UInt8]](repeating: ping, count: 1000).joined())
            for _ in 0..<(pings / 1000) { try socket.send(batch) }
            // Let the server read every ping, then see what it holds and what it sent.
            Thread.sleep(forTimeInterval: 2)
            let after = residentBytes()
            return (socket.socket.readUntilClosed(timeout: .seconds(3)).bytes.count, after)
        }
        // Without coalescing the server queues one 127-byte pong per ping: 12.7 MB for this flood, all delivered
        // once read; coalesced, what the kernel's buffers held (up to ~4 MB) and a pong.
        #expect(received < 6 * 1024 * 1024, "\(received) bytes of pongs for \(pings) pings")
        #expect(after - before < 24 * 1024 * 1024, "resident memory grew by \(after - before) bytes")
        try await server.stop()
    }

    @Test("a lobby broadcast flood to a player that never reads closes its socket and leaves the seat reconnecting")
    func broadcastFlood() async throws {
        var limits = TransportLimits()
        limits.maxPendingOutputBytes = 256 * 1024
        let server = try await HubTestServer.start(transport: limits)
        let port = server.port
        let hosted = try await server.hostSession()
        let player = try await server.joinGuest(named: "Slow", code: hosted.code)
        let socket = try await blocking {
            let socket = try RawWebSocket(port: port,
                                          path: "/sessions/\(hosted.code)/player/\(player.userId)?token=\(player.token)",
                                          receiveBuffer: 4096)
            try socket.send(opcode: 1, Array(#"{"type":"hello"}"#.utf8))
            return socket
        }
        let live = try #require(SessionCode(userInput: hosted.code).flatMap { server.hub.session($0) })
        let before = residentBytes()
        // 60 000 lobbies of ~500 bytes: 30 MB, far past the kernel's buffers and the 256 KiB limit.
        for _ in 0..<60 { for _ in 0..<1000 { live.submit { _, _ in [.broadcastLobby] } } }
        var connection = ""
        for _ in 0..<100 {
            try await Task.sleep(for: .milliseconds(100))
            let lobby = try await server.call("GET", "/sessions/\(hosted.code)", token: hosted.hostToken)
            connection = ((lobby.body["players"] as? [[String: Any]])?.first?["connection"] as? String) ?? ""
            if connection == "reconnecting" { break }
        }
        let after = residentBytes()
        #expect(connection == "reconnecting")
        let (bytes, closed) = try await blocking { socket.socket.readUntilClosed(timeout: .seconds(5)) }
        #expect(closed)
        #expect(bytes.count < 12 * 1024 * 1024, "\(bytes.count) bytes delivered before the close")
        #expect(after - before < 40 * 1024 * 1024, "resident memory grew by \(after - before) bytes")
        try await server.stop()
    }
}
