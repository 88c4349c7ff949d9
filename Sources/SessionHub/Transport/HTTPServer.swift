import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// The pongd HTTP (and, later, WebSocket) listener, run as a ServiceLifecycle service.
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
    private let router: HTTPRouter
    private let bound: EventLoopPromise<Int>

    public init(configuration: Configuration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                logger: Logger) {
        self.configuration = configuration
        self.group = group
        self.logger = logger
        self.router = HTTPRouter()
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
        return ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(HTTPHandler(router: router, logger: logger))
                }
            }
    }
}
