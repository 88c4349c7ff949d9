import NIOCore
import NIOHTTP1
import NIOPosix

/// A minimal HTTP/1.1 client (pong-player-sim's, the end-to-end tests' and the Hub benchmark's): one connection per
/// request (`Connection: close`), a JSON or raw body, a bearer token, extra headers, an optional source address.
///
/// Replies complete on the event loop the request was made on, so a phone's driver stays on its own loop.
public enum HTTPClient {
    /// A reply: status, headers, the whole body, and `Retry-After` in seconds when the server sent it.
    public struct Reply: Sendable {
        /// Status code.
        public var status: Int
        /// The response's headers.
        public var headers: HTTPHeaders
        /// The body's bytes.
        public var body: [UInt8]
        /// `Retry-After`, seconds (`retryAfter(_:)`).
        public var retryAfter: Double?

        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// A `Retry-After` header's delay in seconds: delta-seconds (RFC 9110) capped at an hour; nil when absent or not
    /// a non-negative number (an HTTP date is not understood either).
    public static func retryAfter(_ header: String?) -> Double? {
        guard let seconds = header.flatMap(Double.init), seconds >= 0 else { return nil }
        return min(seconds, 3600)
    }

    /// The whole reply did not come within the `timeout` given to `send` (its connection was closed then).
    public struct TimedOut: Error, Sendable {}

    /// Sends `method path` to `host:port` on `loop`: `json` as an `application/json` body, or `body` as it is (with
    /// only the `headers` given); `token` as a bearer token; from the local address `source` when given. `Host` is
    /// `host:port` unless `headers` names one. With a `timeout`, a reply not complete that long after the call fails
    /// with `TimedOut` and its connection is closed (connecting included), so a silent server holds nothing.
    public static func send(_ method: String, _ path: String, json: String? = nil, body: [UInt8]? = nil,
                            token: String? = nil, headers: [(String, String)] = [], host: String, port: Int,
                            from source: String? = nil, timeout: TimeAmount? = nil,
                            on loop: any EventLoop) -> EventLoopFuture<Reply> {
        let promise = loop.makePromise(of: Reply.self)
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: path)
        if !headers.contains(where: { $0.0.lowercased() == "host" }) {
            head.headers.add(name: "Host", value: "\(host):\(port)")
        }
        head.headers.add(name: "Connection", value: "close")
        if let token { head.headers.add(name: "Authorization", value: "Bearer \(token)") }
        let bytes = json.map { Array($0.utf8) } ?? body
        if json != nil { head.headers.add(name: "Content-Type", value: "application/json") }
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        if let bytes { head.headers.add(name: "Content-Length", value: "\(bytes.count)") }
        let request = head
        var bootstrap = ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(min(timeout ?? .seconds(10), .seconds(10)))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(ReplyCollector(promise: promise))
                }
            }
        if let source, let local = try? SocketAddress(ipAddress: source, port: 0) { bootstrap = bootstrap.bind(to: local) }
        let connect = bootstrap.connect(host: host, port: port)
        connect.whenComplete { result in
            switch result {
            case .success(let channel):
                channel.write(HTTPClientRequestPart.head(request), promise: nil)
                if let bytes {
                    channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: bytes))), promise: nil)
                }
                channel.writeAndFlush(HTTPClientRequestPart.end(nil)).whenFailure { promise.fail($0) }
            case .failure(let error):
                promise.fail(error)
            }
        }
        if let timeout {
            let deadline = loop.scheduleTask(in: timeout) {
                promise.fail(TimedOut())
                connect.whenSuccess { $0.close(promise: nil) }
            }
            promise.futureResult.whenComplete { _ in deadline.cancel() }
        }
        return promise.futureResult
    }

    /// `send` from async code, on any loop of NIO's shared group; with a `timeout`, a reply not complete that long
    /// after the call throws `TimedOut` (its connection closed).
    public static func send(_ method: String, _ path: String, json: String? = nil, body: [UInt8]? = nil,
                            token: String? = nil, headers: [(String, String)] = [], host: String = "127.0.0.1",
                            port: Int, from source: String? = nil, timeout: TimeAmount? = nil) async throws -> Reply {
        try await send(method, path, json: json, body: body, token: token, headers: headers, host: host, port: port,
                       from: source, timeout: timeout, on: MultiThreadedEventLoopGroup.singleton.any()).get()
    }
}

/// Collects one response and completes the promise; closes the connection after it.
private final class ReplyCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let promise: EventLoopPromise<HTTPClient.Reply>
    private var head: HTTPResponseHead?
    private var body: [UInt8] = []

    init(promise: EventLoopPromise<HTTPClient.Reply>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body(let part):
            body.append(contentsOf: part.readableBytesView)
        case .end:
            let headers = head?.headers ?? [:]
            promise.succeed(HTTPClient.Reply(status: Int(head?.status.code ?? 0), headers: headers, body: body,
                                             retryAfter: HTTPClient.retryAfter(headers.first(name: "Retry-After"))))
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
