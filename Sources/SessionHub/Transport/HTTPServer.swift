import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import ServiceLifecycle

/// The pongd HTTP and WebSocket listener, run as a ServiceLifecycle service.
///
/// Requests go to the `HTTPRouter`; an upgrade to a WebSocket endpoint path (`WebSocketEndpoint`) hands the socket
/// to the `WebSocketRoute`.
///
/// `run()` binds, serves until graceful shutdown is triggered, then stops accepting and closes the listener.
public final class HTTPServer: Service, Sendable {
    /// Where to listen.
    public struct Configuration: Sendable {
        /// Interface address, e.g. "127.0.0.1" or "0.0.0.0".
        public var host: String
        /// TCP port; 0 asks the system for a free one (see `boundPort`).
        public var port: Int

        public init(host: String = "127.0.0.1", port: Int = 8080) {
            self.host = host
            self.port = port
        }
    }

    private let configuration: Configuration
    private let group: any EventLoopGroup
    private let logger: Logger
    private let router: any HTTPRouting
    private let webSockets: (any WebSocketRoute)?
    private let bound: EventLoopPromise<Int>
    private let connectionIDs = NIOLockedValueBox<UInt64>(0)

    /// A server with only the built-in routes (`/healthz`).
    public convenience init(configuration: Configuration,
                            group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, logger: Logger) {
        self.init(configuration: configuration, group: group, logger: logger, router: HTTPRouter(), webSockets: nil)
    }

    package init(configuration: Configuration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                 logger: Logger, router: any HTTPRouting, webSockets: (any WebSocketRoute)?) {
        self.configuration = configuration
        self.group = group
        self.logger = logger
        self.router = router
        self.webSockets = webSockets
        self.bound = group.any().makePromise(of: Int.self)
    }

    /// The port actually listened on, once `run()` has bound (fails if binding failed).
    public var boundPort: Int {
        get async throws { try await bound.futureResult.get() }
    }

    public func run() async throws {
        let channel: any Channel
        do {
            channel = try await makeBootstrap().bind(host: configuration.host, port: configuration.port).get()
        } catch {
            bound.fail(error)
            throw error
        }
        let port = channel.localAddress?.port ?? configuration.port
        bound.succeed(port)
        logger.info("listening", metadata: ["http.host": "\(configuration.host)", "http.port": "\(port)"])

        try? await gracefulShutdown()
        logger.info("shutting down")
        try await channel.close()
    }

    private func makeBootstrap() -> ServerBootstrap {
        let router = router
        let logger = logger
        let webSockets = webSockets
        let connectionIDs = connectionIDs
        return ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let httpHandler = HTTPHandler(router: router, logger: logger)
                    // The upgrade completes on this channel's event loop, where the handler may be touched.
                    let boundHandler = NIOLoopBound(httpHandler, eventLoop: channel.eventLoop)
                    var upgraders: [any HTTPServerProtocolUpgrader] = []
                    if let webSockets {
                        upgraders.append(Self.webSocketUpgrader(route: webSockets, ids: connectionIDs))
                    }
                    let upgrade: NIOHTTPServerUpgradeConfiguration? = upgraders.isEmpty ? nil : (
                        upgraders: upgraders,
                        completionHandler: { context in
                            context.pipeline.syncOperations.removeHandler(boundHandler.value, promise: nil)
                        })
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: upgrade, withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(httpHandler)
                }
            }
    }

    /// Upgrades requests for a WebSocket endpoint path that the route allows (`allowsUpgrade`); other requests stay
    /// HTTP (and get 404, or 403 for a refused origin, from the router).
    private static func webSocketUpgrader(route: any WebSocketRoute, ids: NIOLockedValueBox<UInt64>)
        -> NIOWebSocketServerUpgrader
    {
        NIOWebSocketServerUpgrader(
            maxFrameSize: WebSocketLimits.maxFrameBytes,
            automaticErrorHandling: true,
            shouldUpgrade: { channel, head in
                let allowed = WebSocketEndpoint(uri: head.uri) != nil
                    && route.allowsUpgrade(origin: head.headers.first(name: "origin"),
                                           host: head.headers.first(name: "host"))
                return channel.eventLoop.makeSucceededFuture(allowed ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    guard let endpoint = WebSocketEndpoint(uri: head.uri) else { throw ChannelError.inappropriateOperationForState }
                    let id = ids.withLockedValue { value in
                        value += 1
                        return value
                    }
                    let connection = WebSocketConnection(
                        id: id, endpoint: endpoint, remoteAddress: channel.remoteAddress?.ipAddress ?? "unknown",
                        channel: channel)
                    try channel.pipeline.syncOperations.addHandler(NIOWebSocketFrameAggregator(
                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 64,
                        maxAccumulatedFrameSize: WebSocketLimits.maxFrameBytes))
                    try channel.pipeline.syncOperations.addHandler(WebSocketHandler(connection: connection, route: route))
                }
            })
    }
}
