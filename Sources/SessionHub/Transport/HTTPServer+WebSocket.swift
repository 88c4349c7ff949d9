import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOWebSocket
import PongWire

extension HTTPServer {
    /// Upgrades valid requests (`WebSocketUpgradeCheck`) for a WebSocket endpoint path whose origin the route allows
    /// (`allowsUpgrade`); the others stay HTTP: the `HTTPHandler` answers an invalid upgrade, the router the rest
    /// (403 for a refused origin, 404 for another path).
    static func webSocketUpgrader(route: any WebSocketRoute, ids: NIOLockedValueBox<UInt64>,
                                  limits: TransportLimits, logger: Logger) -> NIOWebSocketServerUpgrader
    {
        NIOWebSocketServerUpgrader(
            maxFrameSize: WebSocketLimits.maxFrameBytes,
            automaticErrorHandling: false,
            shouldUpgrade: { channel, head in
                let upgrade = route.endpoint(uri: head.uri) != nil
                    && WebSocketUpgradeCheck.refusal(method: head.method, headers: head.headers) == nil
                    && route.allowsUpgrade(origin: head.headers.first(name: "origin"),
                                           host: head.headers.first(name: "host"))
                return channel.eventLoop.makeSucceededFuture(upgrade ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    guard let endpoint = route.endpoint(uri: head.uri) else { throw ChannelError.inappropriateOperationForState }
                    let id = ids.withLockedValue { value in
                        value += 1
                        return value
                    }
                    let connection = WebSocketConnection(
                        id: id, endpoint: endpoint,
                        remoteAddress: limits.trustedProxies.clientAddress(of: head, on: channel), channel: channel)
                    try channel.pipeline.syncOperations.addHandler(WebSocketFrameChecks())
                    try channel.pipeline.syncOperations.addHandler(NIOWebSocketFrameAggregator(
                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: WebSocketLimits.maxFragments,
                        maxAccumulatedFrameSize: WebSocketLimits.maxFrameBytes))
                    try channel.pipeline.syncOperations.addHandler(WebSocketHandler(
                        connection: connection, route: route, limits: limits, logger: logger))
                }
            })
    }
}

/// Closes a connection refused by the `ConnectionLimiter` as soon as it becomes active.
final class CloseOnActive: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    func channelActive(context: ChannelHandlerContext) {
        context.close(promise: nil)
    }
}
