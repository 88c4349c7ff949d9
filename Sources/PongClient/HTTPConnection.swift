import NIOCore
import NIOHTTP1
import NIOPosix

/// One keep-alive HTTP/1.1 client connection (the Hub benchmark's; `HTTPClient` opens one connection per request).
/// Requests are sent one after another (the caller awaits each reply before the next; no pipelining), optionally from
/// a given local source address.
public final class HTTPConnection: Sendable {
    /// A response: status and the whole body.
    public struct Reply: Sendable {
        /// Status code.
        public var status: Int
        /// The body's bytes.
        public var body: ByteBuffer
    }

    /// What the driving task hands to the channel: the request and where its reply goes.
    fileprivate struct Outgoing: Sendable {
        var head: HTTPRequestHead
        var body: ByteBuffer?
        var reply: EventLoopPromise<Reply>
    }

    private let channel: any Channel
    private let host: String

    private init(channel: any Channel, host: String) {
        self.channel = channel
        self.host = host
    }

    /// Connects to `host`:`port`, from the local address `source` when given.
    public static func connect(host: String = "127.0.0.1", port: Int, from source: SocketAddress? = nil,
                               group: any EventLoopGroup) async throws -> HTTPConnection {
        var bootstrap = ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(ReplyHandler())
                }
            }
        if let source { bootstrap = bootstrap.bind(to: source) }
        return HTTPConnection(channel: try await bootstrap.connect(host: host, port: port).get(), host: host)
    }

    /// Sends one request (a JSON body when `json` is given, a bearer token when `token` is) and awaits its reply.
    public func send(_ method: HTTPMethod, _ path: String, token: String? = nil,
                     json: String? = nil) async throws -> Reply {
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
        head.headers.add(name: "Host", value: host)
        if let token { head.headers.add(name: "Authorization", value: "Bearer \(token)") }
        let body = json.map { ByteBuffer(string: $0) }
        if body != nil { head.headers.add(name: "Content-Type", value: "application/json") }
        if method == .POST || body != nil {
            head.headers.add(name: "Content-Length", value: "\(body?.readableBytes ?? 0)")
        }
        let reply = channel.eventLoop.makePromise(of: Reply.self)
        // A write that fails (connection gone) fails the reply too; completing a promise twice is a no-op.
        channel.writeAndFlush(Outgoing(head: head, body: body, reply: reply)).whenFailure { reply.fail($0) }
        return try await reply.futureResult.get()
    }

    /// Closes the connection (the client closes first, as a phone done with its requests would).
    public func close() async {
        try? await channel.close()
    }
}

/// Writes requests and completes their promises, in order, as responses arrive.
private final class ReplyHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = HTTPConnection.Outgoing
    typealias OutboundOut = HTTPClientRequestPart

    private var waiting = CircularBuffer<EventLoopPromise<HTTPConnection.Reply>>()
    private var status = 0
    private var body: ByteBuffer?

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let request = unwrapOutboundIn(data)
        waiting.append(request.reply)
        context.write(wrapOutboundOut(.head(request.head)), promise: nil)
        if let body = request.body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        context.write(wrapOutboundOut(.end(nil)), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
            body = nil
        case .body(var part):
            body.setOrWriteBuffer(&part)
        case .end:
            let reply = HTTPConnection.Reply(status: status, body: body ?? ByteBuffer())
            waiting.popFirst()?.succeed(reply)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        failAll(ChannelError.eof)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failAll(error)
        context.close(promise: nil)
    }

    private func failAll(_ error: any Error) {
        while let promise = waiting.popFirst() { promise.fail(error) }
    }
}
