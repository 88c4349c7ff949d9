import NIOCore
import NIOHTTP1
import Testing
@testable import SessionHub

@Suite("WebSocketKeepAlive: the server's pings and the pong deadline")
struct WebSocketKeepAliveTests {
    private let t0 = Fixture.t0

    @Test("a ping after the interval; its pong re-arms; no pong by the deadline closes")
    func cycle() {
        var keepAlive = WebSocketKeepAlive(pingInterval: .seconds(20), pongTimeout: .seconds(5), now: t0)
        #expect(keepAlive.deadline == t0 + .seconds(20))
        #expect(keepAlive.timerFired(now: t0 + .seconds(19)) == [.schedule(t0 + .seconds(20))])
        #expect(keepAlive.timerFired(now: t0 + .seconds(20)) == [.ping(id: 1), .schedule(t0 + .seconds(25))])
        #expect(keepAlive.pongReceived(id: 7, now: t0 + .seconds(21)) == [])
        #expect(keepAlive.pongReceived(id: 1, now: t0 + .seconds(21)) == [.schedule(t0 + .seconds(41))])
        #expect(keepAlive.timerFired(now: t0 + .seconds(41)) == [.ping(id: 2), .schedule(t0 + .seconds(46))])
        #expect(keepAlive.timerFired(now: t0 + .seconds(45)) == [.schedule(t0 + .seconds(46))])
        #expect(keepAlive.timerFired(now: t0 + .seconds(46)) == [.close])
    }

    @Test("with the default limits a peer that vanishes is closed within 13 s, however its last pong fell")
    func defaultsBoundTheSilence() {
        let limits = TransportLimits()
        for lastPong in [Duration.zero, .milliseconds(1), .seconds(4), .seconds(5)] {
            var keepAlive = WebSocketKeepAlive(pingInterval: limits.pingInterval, pongTimeout: limits.pongTimeout, now: t0)
            _ = keepAlive.timerFired(now: t0 + limits.pingInterval)
            // The peer answers the first ping at `lastPong` after it, then vanishes.
            _ = keepAlive.pongReceived(id: 1, now: t0 + limits.pingInterval + lastPong)
            let vanished = t0 + limits.pingInterval + lastPong
            var now = vanished
            var closedAt: ContinuousClock.Instant?
            while closedAt == nil, now < vanished + .seconds(30) {
                now = keepAlive.deadline
                if keepAlive.timerFired(now: now).contains(.close) { closedAt = now }
            }
            #expect(closedAt.map { vanished.duration(to: $0) } == .seconds(13))
        }
    }

    @Test("any frame after the ping keeps the socket alive for the pong timeout; silence then closes it")
    func framesAreSignsOfLife() {
        var keepAlive = WebSocketKeepAlive(pingInterval: .seconds(5), pongTimeout: .seconds(8), now: t0)
        #expect(keepAlive.timerFired(now: t0 + .seconds(5)) == [.ping(id: 1), .schedule(t0 + .seconds(13))])
        keepAlive.heard(now: t0 + .seconds(12))  // media queued ahead of the pong on a slow uplink
        #expect(keepAlive.timerFired(now: t0 + .seconds(13)) == [.schedule(t0 + .seconds(20))])
        #expect(keepAlive.timerFired(now: t0 + .seconds(20)) == [.close])
    }

    @Test("unsolicited pongs are ignored")
    func unsolicited() {
        var keepAlive = WebSocketKeepAlive(pingInterval: .seconds(20), pongTimeout: .seconds(5), now: t0)
        #expect(keepAlive.pongReceived(id: nil, now: t0 + .seconds(1)) == [])
        #expect(keepAlive.deadline == t0 + .seconds(20))
    }
}

@Suite("WebSocket close frames and upgrade requests as RFC 6455 wants them")
struct WebSocketRulesTests {
    private func payload(_ bytes: [UInt8]) -> ByteBuffer { ByteBuffer(bytes: bytes) }

    static let closeCases: [([UInt8], UInt16)] = [
        ([], 1000), ([0x03, 0xE8], 1000), ([0x0F, 0xA0], 4000), ([0x0B, 0xB8], 3000),
        ([0x03, 0xE7], 1002), ([0x03, 0xED], 1002), ([0x03, 0xEE], 1002), ([0x03, 0xF7], 1002), ([0x13, 0x88], 1002),
        ([0x03], 1002), ([0x03, 0xE8, 0xFF, 0xFE], 1007), ([0x03, 0xE8, 0x68, 0x69], 1000),
    ]

    @Test("valid close codes are echoed; invalid ones get 1002; a non-UTF-8 reason 1007", arguments: closeCases)
    func closeReply(bytes: [UInt8], expected: UInt16) {
        #expect(WebSocketCloseCheck.reply(to: payload(bytes)) == expected)
    }

    private func headers(_ fields: [(String, String)]) -> HTTPHeaders { HTTPHeaders(fields) }

    @Test("GET with Connection: upgrade, version 13 and a 16-byte key passes; the rest get 405, 426 or 400")
    func upgrade() {
        let good = [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"),
                    ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")]
        #expect(WebSocketUpgradeCheck.refusal(method: .GET, headers: headers(good)) == nil)
        #expect(WebSocketUpgradeCheck.refusal(method: .POST, headers: headers(good))?.error.status == 405)
        let v8 = good.map { $0.0 == "Sec-WebSocket-Version" ? ($0.0, "8") : $0 }
        let refusal = WebSocketUpgradeCheck.refusal(method: .GET, headers: headers(v8))
        #expect(refusal == .init(error: .unsupportedWebSocketVersion, headers: ["Sec-WebSocket-Version": "13"]))
        let keyless = good.filter { $0.0 != "Sec-WebSocket-Key" }
        #expect(WebSocketUpgradeCheck.refusal(method: .GET, headers: headers(keyless))?.error == .invalidWebSocketUpgrade)
        let shortKey = good.map { $0.0 == "Sec-WebSocket-Key" ? ($0.0, "abc") : $0 }
        #expect(WebSocketUpgradeCheck.refusal(method: .GET, headers: headers(shortKey))?.error == .invalidWebSocketUpgrade)
    }
}
