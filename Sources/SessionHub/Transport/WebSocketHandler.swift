import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Per-socket WebSocket handling after the upgrade: control frames, the text cap, flood limits, and hand-off of
/// complete messages to the route. Fragments are reassembled by `NIOWebSocketFrameAggregator` before this handler.
final class WebSocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let connection: WebSocketConnection
    private let route: any WebSocketRoute
    private var textBucket: TokenBucket
    private var binaryBucket: TokenBucket
    private var closing = false

    init(connection: WebSocketConnection, route: any WebSocketRoute, now: ContinuousClock.Instant = .now) {
        self.connection = connection
        self.route = route
        textBucket = TokenBucket(capacity: WebSocketLimits.textBurst, perSecond: WebSocketLimits.textPerSecond, now: now)
        binaryBucket = TokenBucket(capacity: WebSocketLimits.binaryBurst, perSecond: WebSocketLimits.binaryPerSecond,
                                   now: now)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The route hears of the socket once NIO's upgrade is complete: the HTTP handlers are gone, so the route may
        // write at once (a dashboard's welcome), and bytes the client sent meanwhile are replayed only after this,
        // so the route knows the socket before its first message.
        if case .upgradeComplete? = event as? HTTPServerUpgradeEvents {
            route.opened(connection)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        route.closed(connection)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            guard textBucket.take(now: .now) else { return flood(context) }
            let size = frame.data.readableBytes
            guard size <= WebSocketLimits.maxTextBytes else {
                route.oversized(bytes: size, from: connection)
                return
            }
            route.received(text: Array(frame.unmaskedData.readableBytesView), from: connection)
        case .binary:
            guard binaryBucket.take(now: .now) else { return flood(context) }
            route.received(binary: frame.unmaskedData, from: connection)
        case .ping:
            var data = frame.unmaskedData
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: data.readSlice(length: min(data.readableBytes, 125))
                ?? context.channel.allocator.buffer(capacity: 0))
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            closing = true
            var data = frame.unmaskedData
            let code = data.readInteger(as: UInt16.self) ?? 1000
            var reply = context.channel.allocator.buffer(capacity: 2)
            reply.writeInteger(code)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: reply)))
                .whenComplete { _ in channel.close(promise: nil) }
        case .pong, .continuation:
            break
        default:
            break
        }
    }

    private func flood(_ context: ChannelHandlerContext) {
        closing = true
        connection.close(code: CloseCode.flooded.code, reason: CloseCode.flooded.reason)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Protocol violations (oversized frames, bad masking) end the socket with the matching close code.
        let code: UInt16 = (error as? NIOWebSocketError) == .invalidFrameLength ? 1009 : 1002
        if !closing {
            closing = true
            connection.close(code: code, reason: "protocol error")
        }
    }
}
