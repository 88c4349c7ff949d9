import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A WebSocket client over NIO for end-to-end tests: connect, send text or binary, await messages and the close.
/// Use it from one task.
final class TestWebSocketClient {
    /// What arrived, in order.
    enum Event: Sendable, Equatable {
        case text(String)
        case closed(code: UInt16?)
    }

    private let channel: any Channel
    private let events: AsyncStream<Event>
    private var iterator: AsyncStream<Event>.AsyncIterator

    private init(channel: any Channel, events: AsyncStream<Event>) {
        self.channel = channel
        self.events = events
        self.iterator = events.makeAsyncIterator()
    }

    /// Connects to `path` (with its query) on 127.0.0.1:`port` and completes the upgrade.
    static func connect(port: Int, path: String) async throws -> TestWebSocketClient {
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        let upgraded = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: Void.self)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let request = UpgradeRequester(path: path, upgraded: upgraded)
                    let upgrader = NIOWebSocketClientUpgrader(
                        requestKey: "dGhlIHNhbXBsZSBub25jZQ==", maxFrameSize: 1 << 20,
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                // The requester has done its job; frames must not pass through it.
                                channel.pipeline.syncOperations.removeHandler(request, promise: nil)
                                try channel.pipeline.syncOperations.addHandler(Collector(continuation: continuation))
                                upgraded.succeed()
                            }
                        })
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(
                        withClientUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                    try channel.pipeline.syncOperations.addHandler(request)
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        // However the socket ends, the event stream ends with it (after a moment for frames still being replayed
        // by the upgrade handler).
        let loop = channel.eventLoop
        channel.closeFuture.whenComplete { _ in
            loop.scheduleTask(in: .milliseconds(100)) {
                continuation.yield(.closed(code: nil))
                continuation.finish()
            }
        }
        try await upgraded.futureResult.get()
        return TestWebSocketClient(channel: channel, events: stream)
    }

    /// Sends a text frame (masked, as clients must).
    func send(_ text: String) async throws {
        let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text))
        try await channel.writeAndFlush(frame)
    }

    /// Sends a binary frame.
    func send(binary bytes: [UInt8]) async throws {
        let frame = WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: ByteBuffer(bytes: bytes))
        try await channel.writeAndFlush(frame)
    }

    /// A handle that can send from another task while this client reads (e.g. probe filler during a test).
    var sender: Sender { Sender(channel: channel) }

    /// Sends binary frames; Sendable.
    struct Sender: Sendable {
        let channel: any Channel

        func send(binary bytes: [UInt8]) async throws {
            let frame = WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: ByteBuffer(bytes: bytes))
            try await channel.writeAndFlush(frame)
        }
    }

    /// The next event, or nil when the stream ended.
    func next() async -> Event? {
        await iterator.next()
    }

    /// The next text message whose JSON `type` is `type`, skipping others; nil if the socket closes first.
    func next(type: String) async -> String? {
        while let event = await next() {
            if case .text(let text) = event, text.contains(#""type":"\#(type)""#) { return text }
            if case .closed = event { return nil }
        }
        return nil
    }

    /// The next text message for which `matches` holds; nil if the socket closes first.
    func next(where matches: (String) -> Bool) async -> String? {
        while let event = await next() {
            if case .text(let text) = event, matches(text) { return text }
            if case .closed = event { return nil }
        }
        return nil
    }

    /// Waits for the close and returns its code (nil when the socket ended without a close frame).
    func closeCode() async -> UInt16? {
        while let event = await next() {
            if case .closed(let code?) = event { return code }
        }
        return nil
    }

    /// Drops the TCP connection without a close frame (a phone losing its network).
    func drop() async {
        try? await channel.close()
    }

    /// Sends the upgrade request once the channel is active.
    private final class UpgradeRequester: ChannelInboundHandler, RemovableChannelHandler, Sendable {
        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundOut = HTTPClientRequestPart
        let path: String
        let upgraded: EventLoopPromise<Void>

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
            // A plain HTTP answer means the upgrade was refused.
            if case .head(let head) = unwrapInboundIn(data) {
                upgraded.fail(ChannelError.inappropriateOperationForState)
                _ = head
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            upgraded.fail(error)
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            // A server may upgrade and close at once (a refused socket): let the upgrade complete first.
            let upgraded = upgraded
            context.eventLoop.scheduleTask(in: .milliseconds(200)) { upgraded.fail(ChannelError.eof) }
        }
    }

    /// Turns frames into events.
    private final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = WebSocketFrame
        let continuation: AsyncStream<Event>.Continuation

        init(continuation: AsyncStream<Event>.Continuation) {
            self.continuation = continuation
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            switch frame.opcode {
            case .text:
                continuation.yield(.text(String(buffer: frame.unmaskedData)))
            case .connectionClose:
                var data = frame.unmaskedData
                continuation.yield(.closed(code: data.readInteger(as: UInt16.self)))
                context.close(promise: nil)
            default:
                break
            }
        }

    }
}
