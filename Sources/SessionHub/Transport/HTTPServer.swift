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
/// `run()` binds, serves until graceful shutdown is triggered, then stops accepting (closes the listener) and drains
/// the open connections (`ConnectionRegistry`): a WebSocket gets close 4100, a request in flight its response with
/// `Connection: close`, an idle keep-alive connection is closed; whatever is still open when the drain's budget of
/// `TransportLimits.drainTimeout` is spent is closed, and `run()` returns.
public final class HTTPServer: Service, Sendable {
    /// Where to listen.
    public struct Configuration: Sendable {
        /// Interface address, e.g. "127.0.0.1" or "0.0.0.0".
        public var host: String
        /// TCP port; 0 asks the system for a free one (see `boundPort`).
        public var port: Int
        /// Deadlines, connection caps, the output limit and keep-alive pings (docs/SECURITY.md).
        public var limits: TransportLimits

        public init(host: String = "127.0.0.1", port: Int = 8080, limits: TransportLimits = TransportLimits()) {
            self.host = host
            self.port = port
            self.limits = limits
        }
    }

    private let configuration: Configuration
    private let group: any EventLoopGroup
    private let logger: Logger
    private let router: any HTTPRouting
    private let webSockets: (any WebSocketRoute)?
    private let bound: EventLoopPromise<Int>
    private let connectionIDs = NIOLockedValueBox<UInt64>(0)
    private let connections: NIOLockedValueBox<ConnectionLimiter>
    private let registry: ConnectionRegistry
    /// Runs once graceful shutdown began, before the listener closes and the drain starts (the hub's handover).
    private let beforeDrain: (@Sendable () -> Void)?

    /// A server with only the built-in routes (`/healthz`).
    public convenience init(configuration: Configuration,
                            group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, logger: Logger) {
        self.init(configuration: configuration, group: group, logger: logger, router: HTTPRouter(), webSockets: nil)
    }

    package init(configuration: Configuration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                 logger: Logger, router: any HTTPRouting, webSockets: (any WebSocketRoute)?,
                 beforeDrain: (@Sendable () -> Void)? = nil) {
        self.configuration = configuration
        self.beforeDrain = beforeDrain
        self.group = group
        self.logger = logger
        self.router = router
        self.webSockets = webSockets
        self.bound = group.any().makePromise(of: Int.self)
        self.connections = NIOLockedValueBox(ConnectionLimiter(
            maxTotal: configuration.limits.maxConnections,
            maxPerAddress: configuration.limits.maxConnectionsPerAddress))
        self.registry = ConnectionRegistry(logger: logger)
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
        beforeDrain?()
        try await channel.close()
        await registry.drain(timeout: ConnectionDrain.connectionBudget(of: configuration.limits.drainTimeout),
                             on: channel.eventLoop)
    }

    private func makeBootstrap() -> ServerBootstrap {
        let router = router
        let logger = logger
        let webSockets = webSockets
        let connectionIDs = connectionIDs
        let connections = connections
        let registry = registry
        let limits = configuration.limits
        let backoff = TimeAmount.nanoseconds(limits.acceptBackoff.nanoseconds)
        let highWater = max(2, limits.maxPendingOutputBytes)
        return ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                // Out of descriptors, `accept` fails at once while the listener stays readable: pause instead of
                // spinning on it.
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptPause(backoff: backoff, logger: logger))
                }
            }
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: highWater / 2, high: highWater))
            .childChannelInitializer { channel in
                let address = channel.remoteAddress?.ipAddress ?? "unknown"
                // A trusted proxy carries many clients: only the total cap applies to it.
                let proxy = limits.trustedProxies.trusts(peer: address)
                let admission = connections.withLockedValue { $0.opened(from: address, capped: !proxy) }
                guard admission == .admit else {
                    logger.debug("connection refused", metadata: [
                        "client.address": "\(address)", "reason": "\(admission)",
                    ])
                    // Closed as soon as it is registered and active: it costs an accept and a close, nothing more.
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(CloseOnActive())
                    }
                }
                channel.closeFuture.whenComplete { _ in connections.withLockedValue { $0.closed(from: address) } }
                return channel.eventLoop.makeCompletedFuture {
                    let httpHandler = HTTPHandler(router: router, limits: limits, logger: logger)
                    // The upgrade completes on this channel's event loop, where the handler may be touched.
                    let boundHandler = NIOLoopBound(httpHandler, eventLoop: channel.eventLoop)
                    var upgraders: [any HTTPServerProtocolUpgrader] = []
                    if let webSockets {
                        upgraders.append(Self.webSocketUpgrader(route: webSockets, ids: connectionIDs, limits: limits,
                                                                logger: logger))
                    }
                    let upgrade: NIOHTTPServerUpgradeConfiguration? = upgraders.isEmpty ? nil : (
                        upgraders: upgraders,
                        completionHandler: { context in
                            context.pipeline.syncOperations.removeHandler(boundHandler.value, promise: nil)
                        })
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: upgrade, withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(httpHandler)
                    registry.track(channel)
                }
            }
    }
}
