import NIOCore
import NIOHTTP1
import NIOPosix

/// A minimal HTTP/1.1 client: one connection per request (`Connection: close`), JSON bodies, bearer tokens.
///
/// Replies complete on the event loop the request was made on, so a phone's driver stays on its own loop.
enum HTTPClient {
    /// A reply: status, whole body, and `Retry-After` in seconds when the server sent it.
    struct Reply: Sendable {
        /// Status code.
        var status: Int
        /// The body's bytes.
        var body: [UInt8]
        /// `Retry-After`, seconds.
        var retryAfter: Double?
    }

    /// A `Retry-After` header's delay in seconds: delta-seconds (RFC 9110) capped at an hour; nil when absent or not
    /// a non-negative number (an HTTP date is not understood either).
    static func retryAfter(_ header: String?) -> Double? {
        guard let seconds = header.flatMap(Double.init), seconds >= 0 else { return nil }
        return min(seconds, 3600)
    }

    /// Sends `method path` with an optional JSON body and bearer token to `server`, on `loop`.
    static func send(_ method: String, _ path: String, json: String?, token: String?,
                     to server: ServerAddress, from source: String? = nil,
                     on loop: any EventLoop) -> EventLoopFuture<Reply> {
        let promise = loop.makePromise(of: Reply.self)
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: path)
        head.headers.add(name: "Host", value: "\(server.host):\(server.port)")
        head.headers.add(name: "Connection", value: "close")
        if let token { head.headers.add(name: "Authorization", value: "Bearer \(token)") }
        let body = json.map { ByteBuffer(string: $0) } ?? ByteBuffer()
        if json != nil { head.headers.add(name: "Content-Type", value: "application/json") }
        head.headers.add(name: "Content-Length", value: "\(body.readableBytes)")
        let request = head
        var bootstrap = ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(ReplyCollector(promise: promise))
                }
            }
        if let source, let local = try? SocketAddress(ipAddress: source, port: 0) { bootstrap = bootstrap.bind(to: local) }
        let connect = bootstrap.connect(host: server.host, port: server.port)
        connect.whenComplete { result in
            switch result {
            case .success(let channel):
                channel.write(HTTPClientRequestPart.head(request), promise: nil)
                channel.write(HTTPClientRequestPart.body(.byteBuffer(body)), promise: nil)
                channel.writeAndFlush(HTTPClientRequestPart.end(nil)).whenFailure { promise.fail($0) }
            case .failure(let error):
                promise.fail(error)
            }
        }
        return promise.futureResult
    }
}

/// Collects one response and completes the promise; closes the connection after it.
private final class ReplyCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let promise: EventLoopPromise<HTTPClient.Reply>
    private var status = 0
    private var retryAfter: Double?
    private var body: [UInt8] = []

    init(promise: EventLoopPromise<HTTPClient.Reply>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
            retryAfter = HTTPClient.retryAfter(head.headers.first(name: "Retry-After"))
        case .body(let part):
            body.append(contentsOf: part.readableBytesView)
        case .end:
            promise.succeed(HTTPClient.Reply(status: status, body: body, retryAfter: retryAfter))
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(ChannelError.eof)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.close(promise: nil)
    }
}
