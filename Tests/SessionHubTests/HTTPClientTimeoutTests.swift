import PongClient
import Testing

/// PongClient's `HTTPClient.send(timeout:)` against a server that accepts and never answers (`HangingServer`): the
/// call fails with `HTTPClient.TimedOut` at its timeout and the connection is closed, so a silent server holds
/// nothing (pong-player-sim and node-to-node forwarding rely on it).
@Suite("PongClient HTTPClient: a reply that does not come in time")
struct HTTPClientTimeoutTests {
    @Test("a silent server: the async send(timeout:) throws TimedOut after 300 ms and closes its connection")
    func silentServer() async throws {
        let server = try await HangingServer.start()
        let start = ContinuousClock.now
        await #expect(throws: HTTPClient.TimedOut.self) {
            try await HTTPClient.send("GET", "/", port: server.port, timeout: .milliseconds(300))
        }
        let took = ContinuousClock.now - start
        #expect(took >= .milliseconds(300) && took < .seconds(5), "failed at its timeout: \(took)")
        let counts = try await server.drained()
        #expect(counts.accepted == 1, "the request reached the server")
        #expect(counts.open == 0, "the client closed its connection at the timeout")
        try await server.stop()
    }
}
