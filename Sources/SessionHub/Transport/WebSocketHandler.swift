import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket
import PongWire

/// Per-socket WebSocket handling after the upgrade: the text cap and UTF-8 check, flood limits, hand-off of complete
/// messages to the route, and (WebSocketHandler+Control.swift) control frames, the server's keep-alive pings and the
/// output limit. Frames were checked by `WebSocketFrameChecks` and reassembled by `NIOWebSocketFrameAggregator`.
final class WebSocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    let connection: WebSocketConnection
    private let route: any WebSocketRoute
    let logger: Logger
    private var textBucket: TokenBucket
    private var binaryBucket: TokenBucket
    /// Set once the socket is being closed: nothing more is read.
    var closing = false
    /// The server's pings (`WebSocketKeepAlive`) and their timer.
    var keepAlive: WebSocketKeepAlive
    var keepAliveTimer: Scheduled<Void>?
    /// A pong is being written; a ping arriving meanwhile only replaces `pendingPong` (RFC 6455 §5.5.3).
    var pongInFlight = false
    var pendingPong: ByteBuffer?
    /// Bulk upload-probe filler read since the last read burst ended (`FillerBatch`).
    private var filler = FillerBatch()

    init(connection: WebSocketConnection, route: any WebSocketRoute, limits: TransportLimits, logger: Logger,
         now: ContinuousClock.Instant = .now) {
        self.connection = connection
        self.route = route
        self.logger = logger
        let rates = route.messageRates
        textBucket = TokenBucket(capacity: rates.textBurst, perSecond: rates.textPerSecond, now: now)
        binaryBucket = TokenBucket(capacity: rates.binaryBurst, perSecond: rates.binaryPerSecond, now: now)
        keepAlive = WebSocketKeepAlive(pingInterval: limits.pingInterval, pongTimeout: limits.pongTimeout, now: now)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The route hears of the socket once NIO's upgrade is complete: the HTTP handlers are gone, so the route may
        // write at once (a dashboard's welcome), and bytes the client sent meanwhile are replayed only after this,
        // so the route knows the socket before its first message.
        if case .upgradeComplete? = event as? HTTPServerUpgradeEvents {
            route.opened(connection)
            applyKeepAlive([.schedule(keepAlive.deadline)], context: context)
        }
        switch event {
        case let request as WebSocketCloseRequest:
            return closeGracefully(code: request.code, reason: request.reason, context: context)
        case is ChannelShouldQuiesceEvent:  // graceful shutdown (`ConnectionDrain`)
            return closeGracefully(code: CloseCode.serverRestarting.code, reason: CloseCode.serverRestarting.reason,
                                   context: context)
        default:
            break
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        keepAliveTimer?.cancel()
        keepAliveTimer = nil
        pendingPong = nil
        route.closed(connection)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        keepAlive.heard(now: .now)
        guard !closing else {
            // Closing: what the peer sent meanwhile is read and dropped (`closeGracefully`); its close frame is the
            // last thing it sends, so the connection can close without a reset.
            if frame.opcode == .connectionClose { context.close(promise: nil) }
            return
        }
        switch frame.opcode {
        case .text:
            guard textBucket.take(now: .now) else { return flood(context) }
            let bytes = Array(frame.unmaskedData.readableBytesView)
            guard String(validating: bytes, as: UTF8.self) != nil else {
                return fail(context, WebSocketViolation.invalidUTF8)
            }
            guard bytes.count <= WebSocketLimits.maxTextBytes else {
                route.oversized(bytes: bytes.count, from: connection)
                return
            }
            route.received(text: bytes, from: connection)
        case .binary:
            if FillerBatch.isBulk(frame) { return filler.add(byteCount: frame.data.readableBytes) }
            guard binaryBucket.take(now: .now) else { return flood(context) }
            route.received(binary: frame.unmaskedData, from: connection)
        case .ping:
            ping(frame.unmaskedData, context: context)
        case .pong:
            pong(frame.unmaskedData, context: context)
        case .connectionClose:
            peerClosed(frame.unmaskedData, context: context)
        default:
            // `WebSocketFrameChecks` lets no other opcode through, and the aggregator no lone continuation.
            fail(context, WebSocketViolation.reservedOpcode(UInt8(webSocketOpcode: frame.opcode)))
        }
    }

    /// The end of a read burst: the filler gathered in it goes to the route in one call.
    func channelReadComplete(context: ChannelHandlerContext) {
        if let batch = filler.take(), !closing {
            route.received(fillerBytes: batch.bytes, frames: batch.frames, from: connection)
        }
        context.fireChannelReadComplete()
    }

    private func flood(_ context: ChannelHandlerContext) {
        close(.flooded, context: context)
    }

    /// Sends a close frame with `code`, then closes the socket (`closeGracefully`).
    func close(_ code: CloseCode, context: ChannelHandlerContext) {
        closeGracefully(code: code.code, reason: code.reason, context: context)
    }

    /// Ends the socket for a protocol error with the matching close code.
    func fail(_ context: ChannelHandlerContext, _ error: any Error) {
        guard !closing else { return }
        let code: CloseCode
        switch error {
        case ByteToMessageDecoderError.dataReceivedInErrorState(let first, _):
            return fail(context, first)
        // Over a size or fragment-count limit: a valid message pongd will not take (1009), not a protocol error.
        case NIOWebSocketError.invalidFrameLength, NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge,
            NIOWebSocketFrameAggregator.Error.tooManyFragments:
            code = .messageTooBig
        case WebSocketViolation.invalidUTF8:
            code = .invalidPayload
        default:
            code = .protocolError
        }
        logger.info("socket closed for a protocol error", metadata: [
            "socket.id": "\(connection.id)", "close.code": "\(code.code)", "error": "\(error)",
        ])
        close(code, context: context)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is IOError {
            context.close(promise: nil)
            return
        }
        fail(context, error)
    }
}
