import NIOCore
import NIOHTTP1
import NIOWebSocket

extension WebSocketClient {
    /// Sends the upgrade request once connected; a plain HTTP answer means the upgrade was refused.
    final class UpgradeRequester: ChannelInboundHandler, RemovableChannelHandler, Sendable {
        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundOut = HTTPClientRequestPart

        private let configuration: Configuration
        private let upgraded: EventLoopPromise<Void>

        init(configuration: Configuration, upgraded: EventLoopPromise<Void>) {
            self.configuration = configuration
            self.upgraded = upgraded
        }

        func channelActive(context: ChannelHandlerContext) {
            var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: configuration.path)
            head.headers.add(name: "Host", value: configuration.host)
            head.headers.add(name: "Content-Length", value: "0")
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head(let head) = unwrapInboundIn(data) {
                upgraded.fail(WebSocketClientError.upgradeRefused(status: head.status.code))
                context.close(promise: nil)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            upgraded.fail(error)
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            // A server may upgrade and close at once (a refused socket): let the replayed upgrade complete first.
            let upgraded = upgraded
            context.eventLoop.scheduleTask(in: WebSocketClient.closeGrace * 2) {
                upgraded.fail(WebSocketClientError.closedBeforeUpgrade)
            }
            context.fireChannelInactive()
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
                client.reportClose(code: data.readInteger(as: UInt16.self))
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
