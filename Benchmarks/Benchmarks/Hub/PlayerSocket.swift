import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A player's WebSocket (`/sessions/{code}/player/{userId}?token=…`) for the fan-out benchmark: sends text
/// frames; every text frame it receives is stamped on the client's event loop and handed to `Arrivals`.
final class PlayerSocket: Sendable {
    private let channel: any Channel

    private init(channel: any Channel) {
        self.channel = channel
    }

    /// Connects to 127.0.0.1:`port` and completes the upgrade on `pathAndQuery`; messages go to `arrivals` as
    /// socket `index`.
    static func connect(port: Int, pathAndQuery: String, index: Int, arrivals: Arrivals,
                        group: any EventLoopGroup) async throws -> PlayerSocket {
        let upgraded = group.any().makePromise(of: Void.self)
        let channel = try await ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let requester = UpgradeRequester(path: pathAndQuery, upgraded: upgraded)
                    let upgrader = NIOWebSocketClientUpgrader(
                        maxFrameSize: 1 << 20,
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                channel.pipeline.syncOperations.removeHandler(requester, promise: nil)
                                try channel.pipeline.syncOperations.addHandler(
                                    Receiver(index: index, arrivals: arrivals))
                                upgraded.succeed()
                            }
                        })
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(
                        withClientUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                    try channel.pipeline.syncOperations.addHandler(requester)
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        do {
            try await upgraded.futureResult.get()
        } catch {
            try? await channel.close()
            throw error
        }
        return PlayerSocket(channel: channel)
    }

    /// Sends a text frame (masked, as clients must) and waits until it is written.
    func send(_ text: String) async throws {
        try await channel.writeAndFlush(Self.frame(text))
    }

    /// Hands a text frame to the socket without waiting; the event loop writes it.
    func post(_ text: String) {
        channel.writeAndFlush(Self.frame(text), promise: nil)
    }

    /// Closes the socket.
    func close() async {
        try? await channel.close()
    }

    private static func frame(_ text: String) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text))
    }
}

/// Sends the upgrade request once connected; a plain HTTP answer means the upgrade was refused.
private final class UpgradeRequester: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let path: String
    private let upgraded: EventLoopPromise<Void>

    init(path: String, upgraded: EventLoopPromise<Void>) {
        self.path = path
        self.upgraded = upgraded
    }

    func channelActive(context: ChannelHandlerContext) {
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
        head.headers.add(name: "Host", value: "127.0.0.1")
        head.headers.add(name: "Content-Length", value: "0")
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            upgraded.fail(BenchError("WebSocket upgrade refused: \(head.status.code)"))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        upgraded.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        upgraded.fail(ChannelError.eof)
        context.fireChannelInactive()
    }
}

/// Stamps each text frame with `ContinuousClock.now` before anything else and records it.
private final class Receiver: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame

    private let index: Int
    private let arrivals: Arrivals

    init(index: Int, arrivals: Arrivals) {
        self.index = index
        self.arrivals = arrivals
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let now = ContinuousClock.now
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            arrivals.record(socket: index, text: String(buffer: frame.unmaskedData), at: now)
        case .connectionClose:
            arrivals.closed(socket: index)
            context.close(promise: nil)
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        arrivals.closed(socket: index)
        context.fireChannelInactive()
    }
}
