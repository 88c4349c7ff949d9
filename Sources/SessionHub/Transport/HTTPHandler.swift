import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Collects one HTTP/1.1 request at a time, asks the router for the response and writes it.
final class HTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Largest accepted request body (a 2 MB photo as base64 plus JSON).
    static let maxBodyBytes = 3 * 1024 * 1024

    private let router: any HTTPRouting
    private let logger: Logger
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var bodyTooLarge = false

    init(router: any HTTPRouting, logger: Logger) {
        self.router = router
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
            body.removeAll(keepingCapacity: true)
            bodyTooLarge = false
        case .body(var buffer):
            if body.count + buffer.readableBytes > Self.maxBodyBytes {
                bodyTooLarge = true
            } else if let bytes = buffer.readBytes(length: buffer.readableBytes) {
                body += bytes
            }
        case .end:
            guard let requestHead = head else { return }
            head = nil
            if bodyTooLarge {
                write(.error(.payloadTooLarge(limit: Self.maxBodyBytes)), for: requestHead, context: context)
                return
            }
            var headers: [String: String] = [:]
            for (name, value) in requestHead.headers { headers[name.lowercased()] = value }
            let request = HTTPRequest(method: requestHead.method.rawValue, uri: requestHead.uri, headers: headers,
                                      body: body, remoteAddress: context.channel.remoteAddress?.ipAddress ?? "unknown")
            let loop = context.eventLoop
            let bound = NIOLoopBound((self, context), eventLoop: loop)
            let logger = logger
            router.respond(to: request) { response in
                loop.execute {
                    let (handler, context) = bound.value
                    logger.debug("request", metadata: [
                        "http.method": "\(requestHead.method.rawValue)", "http.path": "\(request.path)",
                        "http.status": "\(response.status)",
                    ])
                    handler.write(response, for: requestHead, context: context)
                }
            }
        }
    }

    private func write(_ response: HTTPResponse, for request: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: response.contentType)
        headers.add(name: "Content-Length", value: "\(response.body.count)")
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        let keepAlive = request.isKeepAlive && !bodyTooLarge
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: request.version, status: .init(statusCode: response.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if request.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: response.body)))),
                          promise: nil)
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A refused WebSocket upgrade (not an endpoint path, or an origin the route refuses): the request comes
        // next as plain HTTP, and the router answers it (404, 403).
        if error is NIOWebSocketUpgradeError { return }
        logger.debug("connection error", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }
}
