import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing
@testable import SessionHub

/// SessionHub's `WebSocketClient` against a real server: the order of its events, exactly one `.closed`, and the
/// frames a server sends together with its 101 response (which NIO's client upgrader replays after the upgrade).
@Suite("WebSocket client")
struct WebSocketClientTests {
    /// Every event a client reported, as text, and a way to wait for its `.closed`.
    private final class Recorder: Sendable {
        private let events = NIOLockedValueBox<[String]>([])
        private let closed: EventLoopPromise<Void>

        init(loop: any EventLoop) { closed = loop.makePromise() }

        func record(_ event: WebSocketClient.Event) {
            let line: String
            switch event {
            case .opened: line = "opened"
            case .text(let text): line = text.contains(#""type":"error""#) ? "error" : "text"
            case .binary: line = "binary"
            case .writable: return
            case .closed(let code): line = "closed \(code.map(String.init) ?? "-")"
            }
            events.withLockedValue { $0.append(line) }
            if case .closed = event { closed.succeed() }
        }

        /// Waits (up to 10 s) until `line` has been recorded.
        func waitFor(_ line: String) async throws {
            for _ in 0..<200 where !events.withLockedValue({ $0.contains(line) }) {
                try await Task.sleep(for: .milliseconds(50))
            }
        }

        /// Waits for `.closed`, then a little longer so that a second one would have been seen.
        func finished() async throws -> [String] {
            try await closed.futureResult.get()
            try await Task.sleep(for: .milliseconds(250))
            return events.withLockedValue { $0 }
        }
    }

    private func connect(port: Int, path: String) -> (WebSocketClient, Recorder) {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let recorder = Recorder(loop: loop)
        let client = WebSocketClient.connect(.init(host: "127.0.0.1", port: port, path: path), on: loop) { _, event in
            recorder.record(event)
        }
        return (client, recorder)
    }

    @Test("a socket refused right behind its 101 (error, close 4001, FIN) opens, is never welcomed, and closes once")
    func refusalWithTheUpgrade() async throws {
        let server = try await HubTestServer.start()
        let session = try await server.hostSession()
        let (code, token) = (session.code, session.token)
        // Another user's player path: the server's error and close go out right behind the 101, then it closes.
        // NIO's client upgrade loses those frames in most runs (WebSocketClient's known limit), so either the
        // refusal arrives whole or the socket just ends; never a welcome, never two closes.
        for _ in 0..<10 {
            let (client, recorder) = connect(port: server.port, path: "/sessions/\(code)/player/someone-else?token=\(token)")
            try await client.upgraded.get()
            let events = try await recorder.finished()
            #expect(events == ["opened", "error", "closed 4001"] || events == ["opened", "closed -"], "\(events)")
        }
        try await server.stop()
    }

    @Test("a message the server sends right behind its 101 (the dashboard's welcome) is the first event after opening")
    func welcomeWithTheUpgrade() async throws {
        let server = try await HubTestServer.start()
        let session = try await server.hostSession()
        let (code, hostToken) = (session.code, session.hostToken)
        for _ in 0..<20 {
            let (client, recorder) = connect(port: server.port, path: "/sessions/\(code)/dashboard?token=\(hostToken)")
            try await client.upgraded.get()
            try await Task.sleep(for: .milliseconds(50))
            client.close()
            let events = try await recorder.finished()
            #expect(Array(events.prefix(2)) == ["opened", "text"], "\(events)")
        }
        try await server.stop()
    }

    @Test("an upgrade the server answers with plain HTTP fails `upgraded` and reports one close")
    func refusedUpgrade() async throws {
        let server = try await HubTestServer.start()
        let (client, recorder) = connect(port: server.port, path: "/no-such-socket")
        await #expect(throws: WebSocketClientError.self) { try await client.upgraded.get() }
        #expect(try await recorder.finished() == ["closed -"])
        try await server.stop()
    }

    @Test("a port nobody listens on fails `upgraded` and reports one close")
    func nobodyListening() async throws {
        // Bind and release a port so that nothing listens on it.
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(channel.localAddress?.port)
        try await channel.close()
        let (client, recorder) = connect(port: port, path: "/")
        await #expect(throws: (any Error).self) { try await client.upgraded.get() }
        #expect(try await recorder.finished() == ["closed -"])
    }

    @Test("after the upgrade a bad message gets an error, and the client's own close ends in exactly one `.closed`")
    func echoAndClose() async throws {
        let server = try await HubTestServer.start()
        let session = try await server.hostSession()
        let (code, hostToken) = (session.code, session.hostToken)
        let (client, recorder) = connect(port: server.port, path: "/sessions/\(code)/dashboard?token=\(hostToken)")
        try await client.upgraded.get()
        // An unknown message type gets an `error` and the socket stays (PROTOCOL.md).
        try await client.write(text: #"{"type":"no-such-type"}"#)
        try await recorder.waitFor("error")
        client.close()
        let events = try await recorder.finished()
        #expect(events.first == "opened")
        #expect(events.contains("error"))
        #expect(events.last?.hasPrefix("closed") == true)
        #expect(events.filter { $0.hasPrefix("closed") }.count == 1)
        try await server.stop()
    }
}
