import NIOCore
@testable import PongClient
import Testing
@testable import SessionHub

/// `WebSocketClient.Handshake`, the upgrade's pure part: the request, the accept and the response head read in pieces.
@Suite("WebSocket client handshake")
struct WebSocketClientHandshakeTests {
    /// RFC 6455 §1.3's example key.
    private let key = "dGhlIHNhbXBsZSBub25jZQ=="

    /// A 101 head with `headers` and `accept` (by default the right one for `key`).
    private func head(accept: String = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
                      headers: String = "Upgrade: websocket\r\nConnection: Upgrade\r\n") -> String {
        "HTTP/1.1 101 Switching Protocols\r\n\(headers)Sec-WebSocket-Accept: \(accept)\r\n\r\n"
    }

    private func feed(_ handshake: inout WebSocketClient.Handshake, _ text: String) -> WebSocketClient.Handshake.Action {
        var bytes = ByteBuffer(string: text)
        return handshake.received(&bytes)
    }

    @Test("the accept is RFC 6455's example answer, and a random key is 16 bytes in base64")
    func accept() {
        #expect(WebSocketClient.Handshake.accept(for: key) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        let random = WebSocketClient.Handshake.randomKey()
        #expect(random.count == 24 && random.hasSuffix("=="))
        #expect(random != WebSocketClient.Handshake.randomKey())
    }

    @Test("the request is a GET upgrade with Host, the key and version 13, ending in a blank line")
    func request() {
        let request = WebSocketClient.Handshake(key: key).request(path: "/s/ABC?token=t", host: "example.org")
        #expect(request == "GET /s/ABC?token=t HTTP/1.1\r\nHost: example.org\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n")
    }

    @Test("a 101 split anywhere, even inside its blank line, upgrades and hands back exactly the bytes behind it")
    func splitHead() {
        let bytes = Array(head().utf8) + [0x81, 0x01, 0x61]
        for cut in 1..<bytes.count {
            var handshake = WebSocketClient.Handshake(key: key)
            var first = ByteBuffer(bytes: bytes[..<cut])
            var second = ByteBuffer(bytes: bytes[cut...])
            let firstAction = handshake.received(&first)
            let action = firstAction == .needMore ? handshake.received(&second) : firstAction
            let frames = Array(bytes[head().utf8.count...])
            let expected = cut >= head().utf8.count ? Array(bytes[head().utf8.count..<cut]) : frames
            #expect(action == .upgraded(leftover: ByteBuffer(bytes: expected)), "cut at \(cut)")
        }
    }

    @Test("header names and the Upgrade and Connection tokens are case-insensitive")
    func caseInsensitive() {
        var handshake = WebSocketClient.Handshake(key: key)
        let headers = "upgrade: WebSocket\r\nconnection: keep-alive, upgrade\r\n"
        #expect(feed(&handshake, head(headers: headers)) == .upgraded(leftover: ByteBuffer()))
    }

    @Test("a wrong accept, a missing Upgrade, a plain status and a malformed status line each fail clearly")
    func failures() {
        var wrong = WebSocketClient.Handshake(key: key)
        #expect(feed(&wrong, head(accept: "AAAA")) == .failed(.acceptMismatch))
        var noUpgrade = WebSocketClient.Handshake(key: key)
        #expect(feed(&noUpgrade, head(headers: "Connection: Upgrade\r\n")) == .failed(.notWebSocket))
        var refused = WebSocketClient.Handshake(key: key)
        let notFound = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
        #expect(feed(&refused, notFound) == .failed(.upgradeRefused(status: 404)))
        var garbage = WebSocketClient.Handshake(key: key)
        #expect(feed(&garbage, "SSH-2.0-OpenSSH_9.6\r\n\r\n") == .failed(.malformedResponse))
        var noColon = WebSocketClient.Handshake(key: key)
        #expect(feed(&noColon, head(headers: "Upgrade websocket\r\n")) == .failed(.malformedResponse))
    }

    @Test("a head that has not ended within 16 KiB fails once; bytes after a verdict are dropped")
    func tooLarge() {
        var handshake = WebSocketClient.Handshake(key: key)
        let line = "X-Padding: " + String(repeating: "a", count: 1000) + "\r\n"
        #expect(feed(&handshake, "HTTP/1.1 101 Switching Protocols\r\n") == .needMore)
        var action = WebSocketClient.Handshake.Action.needMore
        for _ in 0..<17 where action == .needMore { action = feed(&handshake, line) }
        #expect(action == .failed(.responseHeadTooLarge))
        var more = ByteBuffer(string: head())
        #expect(handshake.received(&more) == .needMore)
        #expect(more.readableBytes == 0)
        var whole = WebSocketClient.Handshake(key: key)
        let padding = String(repeating: line, count: 17)
        #expect(feed(&whole, head(headers: "Upgrade: websocket\r\nConnection: Upgrade\r\n" + padding))
            == .failed(.responseHeadTooLarge))
    }
}
