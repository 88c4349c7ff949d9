import NIOCore
import NIOWebSocket

extension WebSocketClient {
    /// The upgrade, hand-rolled so that no byte behind the 101 is lost: sends the request once connected, reads the
    /// response head (`Handshake`), and on a 101 that accepts the key puts the frame codec and `FrameReceiver` behind
    /// itself (as NIO's client upgrader would), reports the upgrade, passes them every byte that followed the head in
    /// the same read, and leaves.
    final class Upgrader: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let client: WebSocketClient
        private let configuration: Configuration
        private var handshake: Handshake
        /// Whether the frame handlers are in place: bytes are frames from then on, for the handlers behind.
        private var upgraded = false

        init(client: WebSocketClient, configuration: Configuration, key: String) {
            self.client = client
            self.configuration = configuration
            self.handshake = Handshake(key: key)
        }

        func channelActive(context: ChannelHandlerContext) {
            let request = handshake.request(path: configuration.path, host: configuration.host)
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: request)), promise: nil)
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !upgraded else { return context.fireChannelRead(data) }
            var bytes = unwrapInboundIn(data)
            switch handshake.received(&bytes) {
            case .needMore:
                break
            case .failed(let error):
                fail(context: context, error)
            case .upgraded(let leftover):
                upgrade(context: context, leftover: leftover)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            guard !upgraded else { return context.fireErrorCaught(error) }
            fail(context: context, error)
        }

        func channelInactive(context: ChannelHandlerContext) {
            if !upgraded { client.upgradeFailed(WebSocketClientError.closedBeforeUpgrade) }
            context.fireChannelInactive()
        }

        private func fail(context: ChannelHandlerContext, _ error: any Error) {
            client.upgradeFailed(error)
            context.close(promise: nil)
        }

        /// Installs the frame handlers, reports the upgrade (`.opened` comes first), then hands them `leftover`:
        /// frames that came with the 101, read before a close or FIN right behind them is.
        private func upgrade(context: ChannelHandlerContext, leftover: ByteBuffer) {
            do {
                try context.pipeline.syncOperations.addHandlers(
                    [
                        WebSocketFrameEncoder(),
                        ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: WebSocketClient.maxFrameSize)),
                        // A malformed or oversized frame gets close 1002 (or 1009) and ends the connection.
                        WebSocketProtocolErrorHandler(isServer: false),
                        FrameReceiver(client: client),
                    ],
                    position: .last)
            } catch {
                return fail(context: context, error)
            }
            upgraded = true
            client.upgradeSucceeded()
            if leftover.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(leftover)) }
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    /// Hands text frames, the close code and writability to the client; answers pings. Binary frames are ignored
    /// (the server sends none).
    final class FrameReceiver: ChannelInboundHandler, Sendable {
        typealias InboundIn = WebSocketFrame
        typealias OutboundOut = WebSocketFrame

        private let client: WebSocketClient

        init(client: WebSocketClient) {
            self.client = client
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            switch frame.opcode {
            case .text:
                client.report(.text(String(buffer: frame.unmaskedData)))
            case .connectionClose:
                var data = frame.unmaskedData
                let code = data.readInteger(as: UInt16.self)
                client.closeReason = data.readString(length: data.readableBytes)
                client.reportClose(code: code)
                context.close(promise: nil)
            case .ping:
                let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
                context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
            default:
                break
            }
        }

        func channelWritabilityChanged(context: ChannelHandlerContext) {
            if context.channel.isWritable { client.report(.writable) }
            context.fireChannelWritabilityChanged()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
