import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// What a `WebSocketClient` reports, always on its event loop.
protocol WebSocketDelegate: AnyObject, Sendable {
    /// The upgrade completed; the socket can send.
    func socketOpened(_ socket: WebSocketClient)
    /// A text frame arrived.
    func socket(_ socket: WebSocketClient, received text: String)
    /// The socket ended (close frame code if one came; nil when it dropped or never opened).
    func socketClosed(_ socket: WebSocketClient, code: UInt16?)
    /// The socket's outbound buffer drained below its low watermark.
    func socketWritable(_ socket: WebSocketClient)
}

/// A player WebSocket over NIO: upgrade, masked text and binary frames, writability, abrupt close.
///
/// All calls must be made on `eventLoop` (the phone's loop); the delegate hears back on it.
final class WebSocketClient: @unchecked Sendable {
    /// The loop the socket lives on.
    let eventLoop: any EventLoop
    private var channel: (any Channel)?
    private var reportedClose = false
    weak var delegate: (any WebSocketDelegate)?

    private init(eventLoop: any EventLoop, delegate: any WebSocketDelegate) {
        self.eventLoop = eventLoop
        self.delegate = delegate
    }

    /// Opens `path` (with its query) on `server` from `loop`; the delegate hears `socketOpened` or `socketClosed`.
    static func connect(to server: ServerAddress, path: String, from source: String? = nil, on loop: any EventLoop,
                        delegate: any WebSocketDelegate) -> WebSocketClient {
        let client = WebSocketClient(eventLoop: loop, delegate: delegate)
        let upgraded = loop.makePromise(of: Void.self)
        var bootstrap = ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelOption(.writeBufferWaterMark, value: .init(low: 32 * 1024, high: 128 * 1024))
            // A bounded kernel send buffer: filler waiting in it delays the probe pongs behind it (latency under
            // load), and a slow server would otherwise let seconds of filler pile up there. 128 KiB still fills a
            // 12 Mbit/s link with 80 ms of round trip.
            .channelOption(.socketOption(.so_sndbuf), value: 128 * 1024)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let requester = UpgradeRequester(host: server.host, path: path, upgraded: upgraded)
                    let upgrader = NIOWebSocketClientUpgrader(
                        maxFrameSize: 1 << 20,
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                channel.pipeline.syncOperations.removeHandler(requester, promise: nil)
                                try channel.pipeline.syncOperations.addHandler(FrameReceiver(client: client))
                                upgraded.succeed()
                            }
                        })
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(
                        withClientUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                    try channel.pipeline.syncOperations.addHandler(requester)
                }
            }
        if let source, let local = try? SocketAddress(ipAddress: source, port: 0) { bootstrap = bootstrap.bind(to: local) }
        let connect = bootstrap.connect(host: server.host, port: server.port)
        connect.whenComplete { result in
            switch result {
            case .success(let channel):
                client.channel = channel
                channel.closeFuture.whenComplete { _ in client.reportClose(code: nil) }
                upgraded.futureResult.whenComplete { result in
                    switch result {
                    case .success: client.delegate?.socketOpened(client)
                    case .failure: channel.close(promise: nil)
                    }
                }
            case .failure:
                upgraded.fail(ChannelError.connectTimeout(.seconds(10)))
                client.reportClose(code: nil)
            }
        }
        return client
    }

    /// Whether the outbound buffer is under its high watermark.
    var isWritable: Bool { channel?.isWritable ?? false }

    /// Sends a text frame.
    func send(text: String) {
        write(WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text)), flush: true)
    }

    /// Sends a binary frame; `flush: false` batches it with the next flush.
    func send(binary: ByteBuffer, flush: Bool = true) {
        write(WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: binary), flush: flush)
    }

    /// Flushes batched frames.
    func flush() { channel?.flush() }

    /// Closes the TCP connection without a close frame (a phone losing its network).
    func drop() {
        guard let channel else { return }
        channel.close(promise: nil)
    }

    /// Sends a close frame (1000) and closes.
    func close() {
        guard let channel else { return }
        var data = channel.allocator.buffer(capacity: 2)
        data.writeInteger(UInt16(1000))
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data)
        channel.writeAndFlush(frame).whenComplete { _ in channel.close(promise: nil) }
    }

    private func write(_ frame: WebSocketFrame, flush: Bool) {
        guard let channel, channel.isActive else { return }
        if flush {
            channel.writeAndFlush(frame, promise: nil)
        } else {
            channel.write(frame, promise: nil)
        }
    }

    fileprivate func received(text: String) { delegate?.socket(self, received: text) }
    fileprivate func writable() { delegate?.socketWritable(self) }

    fileprivate func reportClose(code: UInt16?) {
        guard !reportedClose else { return }
        reportedClose = true
        delegate?.socketClosed(self, code: code)
    }
}

/// Sends the upgrade request once connected; a plain HTTP answer means the upgrade was refused.
private final class UpgradeRequester: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let host: String
    private let path: String
    private let upgraded: EventLoopPromise<Void>

    init(host: String, path: String, upgraded: EventLoopPromise<Void>) {
        self.host = host
        self.path = path
        self.upgraded = upgraded
    }

    func channelActive(context: ChannelHandlerContext) {
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
        head.headers.add(name: "Host", value: host)
        head.headers.add(name: "Content-Length", value: "0")
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            upgraded.fail(ChannelError.inappropriateOperationForState)
            context.close(promise: nil)
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

/// Hands text frames, the close code and writability changes to the client.
private final class FrameReceiver: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame

    private let client: WebSocketClient

    init(client: WebSocketClient) {
        self.client = client
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            client.received(text: String(buffer: frame.unmaskedData))
        case .connectionClose:
            var data = frame.unmaskedData
            client.reportClose(code: data.readInteger(as: UInt16.self))
            context.close(promise: nil)
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            context.writeAndFlush(NIOAny(pong), promise: nil)
        default:
            break
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { client.writable() }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
