import NIOCore
import NIOWebSocket
import PongWire

/// Control frames, the server's keep-alive pings and the output limit.
extension WebSocketHandler {
    /// Answers a ping. While a pong is still being written, a new ping only replaces the pong to send next, so a
    /// ping flood from a peer that does not read costs one pong, not a queue of them (RFC 6455 §5.5.3).
    func ping(_ payload: ByteBuffer, context: ChannelHandlerContext) {
        guard !pongInFlight else {
            pendingPong = payload
            return
        }
        pongInFlight = true
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: payload)))
            .whenComplete { _ in
                let (handler, context) = bound.value
                handler.pongInFlight = false
                guard !handler.closing, let next = handler.pendingPong else { return }
                handler.pendingPong = nil
                handler.ping(next, context: context)
            }
    }

    /// A pong: the answer to the server's keep-alive ping re-arms it.
    func pong(_ payload: ByteBuffer, context: ChannelHandlerContext) {
        let id = payload.readableBytes == 8 ? payload.getInteger(at: payload.readerIndex, as: UInt64.self) : nil
        applyKeepAlive(keepAlive.pongReceived(id: id, now: .now), context: context)
    }

    /// The peer's close frame: answered with its own code when valid (`WebSocketCloseCheck`), then the socket closes.
    func peerClosed(_ payload: ByteBuffer, context: ChannelHandlerContext) {
        closing = true
        var reply = context.channel.allocator.buffer(capacity: 2)
        reply.writeInteger(WebSocketCloseCheck.reply(to: payload))
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: reply)))
            .whenComplete { _ in channel.close(promise: nil) }
        channel.eventLoop.scheduleTask(in: WebSocketConnection.closeFlushTimeout) { channel.close(promise: nil) }
    }

    /// Closes the socket so that the close frame reaches the peer: the frame is written and flushed, then the output
    /// is shut (a FIN behind the frame) while input is still read and dropped, until the peer's close frame or FIN
    /// comes, or `WebSocketConnection.closeFlushTimeout` passes. Closing with unread input would make the kernel
    /// answer with a reset, which can destroy the close frame before the peer reads it.
    func closeGracefully(code: UInt16, reason: String, context: ChannelHandlerContext) {
        guard !closing else { return }
        closing = true
        keepAliveTimer?.cancel()
        keepAliveTimer = nil
        let channel = context.channel
        var payload = channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        payload.writeInteger(code)
        payload.writeString(String(reason.utf8.prefix(120)) ?? "")
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)))
            .whenComplete { result in
                switch result {
                case .success: channel.close(mode: .output, promise: nil)
                case .failure: channel.close(promise: nil)
                }
            }
        // A peer that neither reads nor closes: close anyway.
        channel.eventLoop.scheduleTask(in: WebSocketConnection.closeFlushTimeout) { channel.close(promise: nil) }
    }

    /// Performs the keep-alive's actions: pings, the timer, or closing a socket that stopped answering.
    func applyKeepAlive(_ actions: [WebSocketKeepAlive.Action], context: ChannelHandlerContext) {
        for action in actions {
            switch action {
            case .ping(let id):
                var payload = context.channel.allocator.buffer(capacity: 8)
                payload.writeInteger(id)
                context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .ping, data: payload)),
                                      promise: nil)
            case .schedule(let deadline):
                keepAliveTimer?.cancel()
                let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                let delay = ContinuousClock.now.duration(to: deadline)
                keepAliveTimer = context.eventLoop.scheduleTask(in: .nanoseconds(max(0, delay.nanoseconds))) {
                    let (handler, context) = bound.value
                    handler.keepAliveTimer = nil
                    guard !handler.closing else { return }
                    handler.applyKeepAlive(handler.keepAlive.timerFired(now: .now), context: context)
                }
            case .close:
                // The peer is gone or stuck: no drain. The close frame goes out if the socket can still take it,
                // and the socket closes now, so a player's seat turns `reconnecting` at once.
                logger.info("socket closed: no pong", metadata: ["socket.id": "\(connection.id)"])
                closing = true
                var reason = context.channel.allocator.buffer(capacity: 32)
                reason.writeInteger(CloseCode.noPong.code)
                reason.writeString(CloseCode.noPong.reason)
                context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: reason)),
                                      promise: nil)
                context.close(promise: nil)
            }
        }
    }

    /// The channel's output passed its high-water mark (`TransportLimits.maxPendingOutputBytes`): the peer does not
    /// read. The socket is closed at once and its queued output dropped.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if !context.channel.isWritable, !closing {
            logger.warning("socket closed: output queue full", metadata: [
                "socket.id": "\(connection.id)", "client.address": "\(connection.remoteAddress)",
            ])
            closing = true
            var reason = context.channel.allocator.buffer(capacity: 32)
            reason.writeInteger(CloseCode.outputOverflow.code)
            reason.writeString(CloseCode.outputOverflow.reason)
            context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: reason)),
                          promise: nil)
            context.close(promise: nil)
        }
        context.fireChannelWritabilityChanged()
    }
}
