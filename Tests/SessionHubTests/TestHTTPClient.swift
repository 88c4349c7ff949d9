import NIOCore
import NIOHTTP1
import NIOPosix

/// A one-request HTTP/1.1 client over NIO for end-to-end tests.
enum TestHTTPClient {
    struct Response {
        var status: Int
        var headers: HTTPHeaders
        var body: String
    }

    static func request(_ method: HTTPMethod, port: Int, path: String, body: String? = nil,
                        headers: [(String, String)] = []) async throws -> Response {
        let promise = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: Response.self)
        let collector = ResponseCollector(promise: promise)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(collector)
                    }
                }
                .connect(host: "127.0.0.1", port: port).get()
        } catch {
            promise.fail(error)
            throw error
        }
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
        head.headers.add(name: "Host", value: "127.0.0.1")
        head.headers.add(name: "Connection", value: "close")
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        if let body { head.headers.add(name: "Content-Length", value: "\(body.utf8.count)") }
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        if let body {
            channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(string: body))), promise: nil)
        }
        try await channel.writeAndFlush(HTTPClientRequestPart.end(nil)).get()
        return try await promise.futureResult.get()
    }

    private final class ResponseCollector: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPClientResponsePart
        private var head: HTTPResponseHead?
        private var body = ""
        private let promise: EventLoopPromise<Response>

        init(promise: EventLoopPromise<Response>) {
            self.promise = promise
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let h): head = h
            case .body(let buffer): body += String(buffer: buffer)
            case .end:
                if let head {
                    promise.succeed(Response(status: Int(head.status.code), headers: head.headers, body: body))
                }
                context.close(promise: nil)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            promise.fail(error)
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(ChannelError.eof)
        }
    }
}
