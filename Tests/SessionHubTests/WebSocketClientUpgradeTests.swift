@testable import PongClient
import Testing
@testable import SessionHub

/// `WebSocketClient`'s own upgrade against a scripted server: every byte behind the 101 is delivered, and a 101 that
/// does not accept the key, a plain HTTP answer or an endless head fails `upgraded` with a clear error.
/// Part of the serialized "End to end" suite, as every test that starts a server.
extension EndToEndTests {
    @Test("an error and a close 4001 in the 101's segment, then FIN, are delivered on every one of 50 connections")
    func framesWithTheUpgradeThenFIN() async throws {
        let server = try await ScriptedUpgradeServer.start(close: true) { key in
            ScriptedUpgradeServer.switching(key: key)
                + ScriptedUpgradeServer.textFrame(#"{"type":"error","code":"forbidden"}"#)
                + ScriptedUpgradeServer.closeFrame(4001)
        }
        for _ in 0..<50 {
            let (client, recorder) = recordedClient(port: server.port, path: "/")
            try await client.upgraded.get()
            #expect(try await recorder.closed() == ["opened", "error", "closed 4001"])
        }
        try await server.stop()
    }

    @Test("frames in the 101's segment are the first events after opening, and the socket stays open")
    func framesWithTheUpgrade() async throws {
        let server = try await ScriptedUpgradeServer.start(close: false) { key in
            ScriptedUpgradeServer.switching(key: key)
                + ScriptedUpgradeServer.textFrame(#"{"type":"welcome"}"#)
                + ScriptedUpgradeServer.textFrame(#"{"type":"error","code":"x"}"#)
        }
        let (client, recorder) = recordedClient(port: server.port, path: "/")
        try await client.upgraded.get()
        #expect(try await recorder.lines(through: { $0 == "error" }) == ["opened", "text", "error"])
        #expect(client.isWritable)
        client.close()
        #expect(try await recorder.closed() == ["closed -"])
        try await afterASecondCloseCouldCome()
        #expect(await recorder.rest() == [])
        try await server.stop()
    }

    @Test("a 101 whose Sec-WebSocket-Accept does not match the key fails with acceptMismatch and closes once")
    func wrongAccept() async throws {
        let server = try await ScriptedUpgradeServer.start(close: false) { key in
            // The accept of RFC 6455's example key, not of this one.
            ScriptedUpgradeServer.switching(key: key, accept: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
                + ScriptedUpgradeServer.textFrame(#"{"type":"welcome"}"#)
        }
        try await expectFailure(.acceptMismatch, port: server.port)
        try await server.stop()
    }

    @Test("a 101 without Upgrade: websocket fails with notWebSocket")
    func notWebSocket() async throws {
        let server = try await ScriptedUpgradeServer.start(close: false) { key in
            ScriptedUpgradeServer.switching(key: key, upgrade: "h2c")
        }
        try await expectFailure(.notWebSocket, port: server.port)
        try await server.stop()
    }

    @Test("a plain HTTP answer fails with upgradeRefused(status:) and its status")
    func plainAnswer() async throws {
        let server = try await ScriptedUpgradeServer.start(close: false) { _ in
            Array("HTTP/1.1 403 Forbidden\r\nContent-Length: 9\r\n\r\nforbidden".utf8)
        }
        try await expectFailure(.upgradeRefused(status: 403), port: server.port)
        try await server.stop()
    }

    @Test("a response head over 16 KiB fails with responseHeadTooLarge, whether or not it ends")
    func headTooLarge() async throws {
        let padding = "X-Padding: " + String(repeating: "a", count: 17 * 1024) + "\r\n"
        let whole = try await ScriptedUpgradeServer.start(close: false) { key in
            ScriptedUpgradeServer.switching(key: key, extra: padding)
        }
        try await expectFailure(.responseHeadTooLarge, port: whole.port)
        try await whole.stop()
        let endless = try await ScriptedUpgradeServer.start(close: false) { _ in
            Array(("HTTP/1.1 101 Switching Protocols\r\n" + padding).utf8)
        }
        try await expectFailure(.responseHeadTooLarge, port: endless.port)
        try await endless.stop()
    }

    /// Connects to `port` and expects `upgraded` to fail with `error`, then exactly one `.closed(code: nil)`.
    private func expectFailure(_ error: WebSocketClientError, port: Int,
                               sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let (client, recorder) = recordedClient(port: port, path: "/")
        await #expect(throws: error, sourceLocation: sourceLocation) { try await client.upgraded.get() }
        #expect(try await recorder.closed() == ["closed -"], sourceLocation: sourceLocation)
        try await afterASecondCloseCouldCome()
        #expect(await recorder.rest() == [], sourceLocation: sourceLocation)
    }
}
