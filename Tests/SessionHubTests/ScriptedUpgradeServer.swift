import Foundation
import NIOCore
import NIOPosix
@testable import PongClient
@testable import SessionHub

/// A TCP listener that answers each connection's upgrade request with bytes a test chose, in one write (one TCP
/// segment on loopback), then closes the connection or leaves it open: a server that misbehaves on purpose.
final class ScriptedUpgradeServer: Sendable {
    /// What to send once a request head arrived: the bytes for the request's `Sec-WebSocket-Key`.
    typealias Answer = @Sendable (_ key: String) -> [UInt8]

    private let channel: any Channel

    private init(channel: any Channel) {
        self.channel = channel
    }

    /// Listens on an ephemeral port of 127.0.0.1; closes each connection after its answer when `close` is true.
    static func start(close: Bool, answer: @escaping Answer) async throws -> ScriptedUpgradeServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(Responder(close: close, answer: answer))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return ScriptedUpgradeServer(channel: channel)
    }

    /// The port it listens on.
    var port: Int { channel.localAddress?.port ?? 0 }

    /// Stops listening.
    func stop() async throws {
        try await channel.close()
    }

    /// `HTTP/1.1 101` with the accept for `key` (or `accept`), the upgrade headers and `extra` header lines.
    static func switching(key: String, accept: String? = nil, upgrade: String = "websocket",
                          extra: String = "") -> [UInt8] {
        let accept = accept ?? WebSocketClient.Handshake.accept(for: key)
        return Array(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: \(upgrade)\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(accept)\r\n\(extra)\r\n").utf8)
    }

    /// An unmasked text frame (as servers send) of fewer than 126 bytes.
    static func textFrame(_ text: String) -> [UInt8] {
        [0x81, UInt8(text.utf8.count)] + Array(text.utf8)
    }

    /// An unmasked close frame with `code` and no reason.
    static func closeFrame(_ code: UInt16) -> [UInt8] {
        [0x88, 2, UInt8(code >> 8), UInt8(code & 0xFF)]
    }

    /// Gathers the request head, then writes the answer.
    private final class Responder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let close: Bool
        private let answer: Answer
        private var request = ""
        private var answered = false

        init(close: Bool, answer: @escaping Answer) {
            self.close = close
            self.answer = answer
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            request += String(buffer: unwrapInboundIn(data))
            guard !answered, request.contains("\r\n\r\n") else { return }
            answered = true
            let prefix = "sec-websocket-key:"
            let key = request.split(separator: "\r\n")
                .first { $0.lowercased().hasPrefix(prefix) }
                .map { $0.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces) } ?? ""
            let written = context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: answer(key))))
            if close { written.assumeIsolated().whenComplete { _ in context.close(promise: nil) } }
        }
    }
}
