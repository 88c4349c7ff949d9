import Foundation
@testable import PongWire
import Testing
@testable import SessionHub

/// A frame sequence a hostile client sends, and the close code RFC 6455 wants for it.
struct FrameCase: Sendable, CustomStringConvertible {
    var description: String
    var frames: [[UInt8]]
    var closeCode: UInt16

    static func one(_ description: String, opcode: UInt8, _ payload: [UInt8], masked: Bool = true, rsv: UInt8 = 0,
                    close: UInt16) -> FrameCase {
        FrameCase(description: description,
                  frames: [RawWebSocket.frame(opcode: opcode, payload, masked: masked, rsv: rsv)], closeCode: close)
    }
}

@Suite("RFC 6455 against a real server: hostile frames and upgrades")
struct HostileWebSocketTests {
    static let invalidUTF8: [UInt8] = [0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCE, 0xBC, 0xCE, 0xB5, 0xED, 0xA0, 0x80, 0x65]

    static let cases: [FrameCase] = [
        .one("unmasked text", opcode: 1, Array("{}".utf8), masked: false, close: 1002),
        .one("RSV1 without an extension", opcode: 1, Array("{}".utf8), rsv: 4, close: 1002),
        .one("RSV3 on a ping", opcode: 9, [], rsv: 1, close: 1002),
        .one("reserved data opcode 3", opcode: 3, [], close: 1002),
        .one("reserved control opcode 11", opcode: 11, [], close: 1002),
        .one("close code 999", opcode: 8, RawWebSocket.closePayload(999), close: 1002),
        .one("close code 1005", opcode: 8, RawWebSocket.closePayload(1005), close: 1002),
        .one("close payload of one byte", opcode: 8, [3], close: 1002),
        .one("close 4000 is echoed", opcode: 8, RawWebSocket.closePayload(4000), close: 4000),
        .one("close reason not UTF-8", opcode: 8, RawWebSocket.closePayload(1000, [0xFF, 0xFE]), close: 1007),
        .one("text not UTF-8", opcode: 1, invalidUTF8, close: 1007),
        .one("ping payload of 126 bytes", opcode: 9, [UInt8](repeating: 1, count: 126), close: 1002),
        .one("one frame over 256 KiB", opcode: 2, [UInt8](repeating: 1, count: 300_000), close: 1009),
        .one("continuation without a first fragment", opcode: 0, Array("x".utf8), close: 1002),
        FrameCase(description: "fragments reassembled over 256 KiB",
                  frames: [RawWebSocket.frame(opcode: 1, [UInt8](repeating: 0x20, count: 200_000), fin: false),
                           RawWebSocket.frame(opcode: 0, [UInt8](repeating: 0x20, count: 100_000))],
                  closeCode: 1009),
        FrameCase(description: "a valid text in more fragments than pongd takes (Autobahn 9.3.1–9.3.4: 1002 before)",
                  frames: [RawWebSocket.frame(opcode: 1, Array("x".utf8), fin: false)]
                      + (1..<WebSocketLimits.maxFragments).map { _ in
                          RawWebSocket.frame(opcode: 0, Array("x".utf8), fin: false) }
                      + [RawWebSocket.frame(opcode: 0, Array("x".utf8))],
                  closeCode: 1009),
        FrameCase(description: "invalid UTF-8 in a text's first fragment fails at once (Autobahn 6.4.1)",
                  frames: [RawWebSocket.frame(opcode: 1, Array("κ".utf8) + [0xF4, 0x90, 0x80, 0x80], fin: false)],
                  closeCode: 1007),
        FrameCase(description: "a new message inside a fragmented one",
                  frames: [RawWebSocket.frame(opcode: 1, Array("{".utf8), fin: false),
                           RawWebSocket.frame(opcode: 1, Array("}".utf8))],
                  closeCode: 1002),
    ]

    /// A server, a session and its dashboard socket opened by hand (its `welcome` read).
    private func dashboard() async throws -> (HubTestServer, RawWebSocket) {
        let server = try await HubTestServer.start()
        let port = server.port
        let hosted = try await server.hostSession()
        let socket = try await blocking {
            let socket = try RawWebSocket(port: port,
                                          path: "/sessions/\(hosted.code)/dashboard?token=\(hosted.hostToken)")
            _ = socket.next()
            return socket
        }
        return (server, socket)
    }

    @Test("each violation closes the socket with its code", arguments: cases)
    func violation(_ frameCase: FrameCase) async throws {
        let (server, socket) = try await dashboard()
        let code = try await blocking {
            for frame in frameCase.frames { try socket.send(frame) }
            return socket.closeCode()
        }
        #expect(code == frameCase.closeCode, "\(frameCase.description)")
        try await server.stop()
    }

    @Test("a fragmented text with a ping between its fragments: the pong first, then the message is handled")
    func interleavedPing() async throws {
        let (server, socket) = try await dashboard()
        let frames = try await blocking {
            try socket.send(opcode: 1, Array(#"{"type":"#.utf8), fin: false)
            try socket.send(opcode: 9, Array("hi".utf8))
            try socket.send(opcode: 0, Array(#""battery"}"#.utf8))
            return [socket.next(), socket.next()]
        }
        #expect(frames.first??.opcode == 0xA)
        #expect(frames.first??.text == "hi")
        #expect(frames.last??.text.contains(#""type":"error""#) == true)
        try await server.stop()
    }

    @Test("upgrades: POST gets 405, version 8 gets 426 with Sec-WebSocket-Version: 13, no key or a bad one 400",
          arguments: [
              ("POST", "13", "dGhlIHNhbXBsZSBub25jZQ==", "405"), ("GET", "8", "dGhlIHNhbXBsZSBub25jZQ==", "426"),
              ("GET", "13", "", "400"), ("GET", "13", "short", "400"), ("GET", "13", "dGhlIHNhbXBsZSBub25jZQ==", "101"),
          ])
    func upgrades(method: String, version: String, key: String, status: String) async throws {
        let server = try await HubTestServer.start()
        let port = server.port
        let hosted = try await server.hostSession()
        let path = "/sessions/\(hosted.code)/dashboard?token=\(hosted.hostToken)"
        let head = try await blocking {
            let socket = try RawSocket(port: port)
            try socket.send(RawWebSocket.upgradeRequest(path: path, method: method, version: version,
                                                        key: key.isEmpty ? nil : key))
            return socket.read(until: "\r\n\r\n", timeout: .seconds(5))
        }
        #expect(head.hasPrefix("HTTP/1.1 \(status)"), "\(head)")
        if status == "426" { #expect(head.lowercased().contains("sec-websocket-version: 13")) }
        try await server.stop()
    }
}
