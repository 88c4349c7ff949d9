import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket
import PongWire

/// Collects one HTTP/1.1 request at a time, asks the router for the response and writes it.
///
/// It also enforces the connection's read deadlines (`HTTPDeadlines`), refuses a body over `maxBodyBytes` as soon as
/// its declared or streamed size passes it (413, then the connection is closed), and answers an upgrade request the
/// WebSocket upgrader turned down (`WebSocketUpgradeCheck`).
final class HTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Largest accepted request body (a 2 MB photo as base64 plus JSON).
    static let maxBodyBytes = HTTPLimits.maxBodyBytes
    /// How long a connection refused mid-body keeps reading (and dropping) before it closes, so the client sees the
    /// answer instead of a reset.
    static let lingerAfterRefusal: TimeAmount = .seconds(1)

    private let router: any HTTPRouting
    private let logger: Logger
    /// Proxies whose forwarding header names the client.
    private let proxies: TrustedProxies
    private var deadlines: HTTPDeadlines
    private var timer: Scheduled<Void>?
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    /// Set once a request was refused before its end: the rest of what arrives is dropped until the close.
    private var refused = false

    init(router: any HTTPRouting, limits: TransportLimits, logger: Logger) {
        self.router = router
        self.logger = logger
        self.proxies = limits.trustedProxies
        self.deadlines = HTTPDeadlines(limits: limits)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        apply(deadlines.opened(now: .now), context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
            body.removeAll(keepingCapacity: true)
            apply(deadlines.headReceived(now: .now), context: context)
            if WebSocketUpgradeCheck.asksForWebSocket(requestHead.headers),
                WebSocketEndpoint(uri: requestHead.uri) != nil,
                let refusal = WebSocketUpgradeCheck.refusal(method: requestHead.method, headers: requestHead.headers)
            {
                var response = HTTPResponse.error(refusal.error)
                response.headers += refusal.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
                return refuse(response, for: requestHead, context: context)
            }
            if let declared = requestHead.headers["content-length"].first.flatMap({ Int($0) }),
                declared > Self.maxBodyBytes
            {
                refuse(.error(.payloadTooLarge(limit: Self.maxBodyBytes)), for: requestHead, context: context)
            }
        case .body(var buffer):
            guard let requestHead = head else { return }
            guard body.count + buffer.readableBytes <= Self.maxBodyBytes else {
                return refuse(.error(.payloadTooLarge(limit: Self.maxBodyBytes)), for: requestHead, context: context)
            }
            buffer.readWithUnsafeReadableBytes { bytes in
                body.append(contentsOf: bytes)
                return bytes.count
            }
        case .end:
            guard let requestHead = head else { return }
            head = nil
            apply(deadlines.requestEnded(), context: context)
            respond(to: requestHead, context: context)
        }
    }

    private func respond(to requestHead: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers: [String: String] = [:]
        for (name, value) in requestHead.headers { headers[name.lowercased()] = value }
        let request = HTTPRequest(method: requestHead.method.rawValue, uri: requestHead.uri, headers: headers,
                                  body: body, remoteAddress: proxies.clientAddress(of: requestHead, on: context.channel))
        body = []
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
                handler.write(response, for: requestHead, keepAlive: requestHead.isKeepAlive, context: context)
            }
        }
    }

    /// Answers before the request's end and closes: the output at once, the connection after a short linger.
    private func refuse(_ response: HTTPResponse, for request: HTTPRequestHead, context: ChannelHandlerContext) {
        refused = true
        head = nil
        body = []
        timer?.cancel()
        logger.info("request refused", metadata: [
            "http.method": "\(request.method.rawValue)", "http.status": "\(response.status)",
            "error.code": "\(response.errorCode ?? "")",
            "client.address": "\(context.channel.remoteAddress?.ipAddress ?? "unknown")",
        ])
        router.transportAnswered(response)
        // The same security headers as every routed answer (issue 12, item 10), and its CORS headers (issue 14).
        var answer = response.withSecurityHeaders()
        answer.headers += router.transportHeaders(origin: request.headers.first(name: "origin"),
                                                  host: request.headers.first(name: "host"))
        write(answer, for: request, keepAlive: false, context: context)
    }

    private func write(_ response: HTTPResponse, for request: HTTPRequestHead, keepAlive: Bool,
                       context: ChannelHandlerContext) {
        // The client may be gone by the time a slow route answers (closed by a deadline, or by itself).
        guard context.channel.isActive else { return }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: response.contentType)
        headers.add(name: "Content-Length", value: "\(response.body.count)")
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: request.version, status: .init(statusCode: response.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if request.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: response.body)))),
                          promise: nil)
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if keepAlive {
            apply(deadlines.responseSent(now: .now), context: context)
        } else if refused {
            let channel = context.channel
            done.whenComplete { _ in
                channel.close(mode: .output, promise: nil)
                channel.eventLoop.scheduleTask(in: Self.lingerAfterRefusal) { channel.close(promise: nil) }
            }
        } else {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }

    private func apply(_ action: HTTPDeadlines.Action?, context: ChannelHandlerContext) {
        switch action {
        case .schedule(let deadline)?:
            timer?.cancel()
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let delay = ContinuousClock.now.duration(to: deadline)
            timer = context.eventLoop.scheduleTask(in: .nanoseconds(max(0, delay.nanoseconds))) {
                let (handler, context) = bound.value
                handler.timer = nil
                handler.apply(handler.deadlines.timerFired(now: .now), context: context)
            }
        case .cancel?:
            timer?.cancel()
            timer = nil
        case .close?:
            logger.debug("request deadline passed", metadata: [
                "http.phase": "\(deadlines.phase)",
                "client.address": "\(context.channel.remoteAddress?.ipAddress ?? "unknown")",
            ])
            context.close(promise: nil)
        case nil:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A refused WebSocket upgrade is passed on as a request: an invalid one is answered above, a valid one the
        // route refused (its origin) goes to the router, which answers 403.
        if error is NIOWebSocketUpgradeError { return }
        logger.debug("connection error", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }
}

extension TrustedProxies {
    /// The client address of a request that arrived on `channel` with this head.
    func clientAddress(of head: HTTPRequestHead, on channel: any Channel) -> String {
        clientAddress(peer: channel.remoteAddress?.ipAddress ?? "unknown", forwarded: head.headers["forwarded"],
                      xForwardedFor: head.headers["x-forwarded-for"])
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
