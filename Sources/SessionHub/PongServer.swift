import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// pongd as one service: the hub (accounts, sessions, sockets, store) behind the HTTP/WebSocket listener, and the
/// metrics listener (`GET /metrics`) on its own address.
///
/// What `pongd serve` runs, and what benchmarks start on an ephemeral port.
public final class PongServer: Service, Sendable {
    private let server: HTTPServer
    private let metricsServer: HTTPServer?
    private let hub: SessionHub
    private let logger: Logger

    /// Opens (or creates) the data folder and restores its live sessions; throws if the folder cannot be used.
    /// `idleTimeout`: a session with no event for this long ends; `gracePeriod`: how long a dropped player's seat is
    /// kept. `transport`: deadlines, connection caps and the output limit; `helloTimeout`: how long a player socket may
    /// wait before `hello`; `maxSocketsPerUser`: WebSockets one user may hold (docs/SECURITY.md). `allowedOrigins`:
    /// web origins allowed to open sockets and get CORS answers (empty: the server's own). `metricsPort`: where
    /// `GET /metrics` is served, on `metricsHost` (nil: nowhere).
    public convenience init(
        host: String = "127.0.0.1", port: Int = 8080, dataDirectory: String, publicBaseURL: String = "",
        idleTimeout: Duration = .seconds(2 * 3600), gracePeriod: Duration = .seconds(60), joinBurst: Double = 10,
        joinsPerMinute: Double = 10, transport: TransportLimits = TransportLimits(),
        helloTimeout: Duration = .seconds(10), maxSocketsPerUser: Int = 8, allowedOrigins: [String] = [],
        metricsHost: String = "127.0.0.1", metricsPort: Int? = nil,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, logger: Logger
    ) throws {
        var session = SessionState.Configuration(gracePeriod: gracePeriod, idleTimeout: idleTimeout)
        session.helloTimeout = helloTimeout
        var configuration = HubConfiguration(dataDirectory: dataDirectory, publicBaseURL: publicBaseURL,
                                             session: session, joinBurst: joinBurst,
                                             joinsPerSecond: joinsPerMinute / 60)
        configuration.maxSocketsPerUser = maxSocketsPerUser
        configuration.allowedOrigins = allowedOrigins
        try self.init(configuration: configuration, host: host, port: port, transport: transport,
                      metricsHost: metricsHost, metricsPort: metricsPort, group: group, logger: logger)
    }

    /// A server over a full hub configuration (`pongd serve` sets every limit through it).
    package init(configuration: HubConfiguration, host: String, port: Int,
                 transport: TransportLimits = TransportLimits(), metricsHost: String, metricsPort: Int?,
                 group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, logger: Logger) throws {
        let hub = try SessionHub(configuration: configuration, logger: logger)
        self.hub = hub
        self.logger = logger
        // Several nodes: a drain hands the sessions to the other nodes (close 4101) before the rest get 4100.
        server = HTTPServer(configuration: .init(host: host, port: port, limits: transport), group: group,
                            logger: logger, router: hub.router, webSockets: hub,
                            beforeDrain: { hub.handOverSessions() })
        var metricsLimits = TransportLimits()
        metricsLimits.drainTimeout = transport.drainTimeout
        metricsServer = metricsPort.map { metricsPort in
            HTTPServer(configuration: .init(host: metricsHost, port: metricsPort, limits: metricsLimits), group: group,
                       logger: logger.with("listener", "metrics"), router: hub.metricsRouter, webSockets: nil)
        }
    }

    /// The port listened on, once `run()` has bound.
    public var boundPort: Int {
        get async throws { try await server.boundPort }
    }

    /// The metrics listener's port, once `run()` has bound it; nil without one.
    public var boundMetricsPort: Int? {
        get async throws { try await metricsServer?.boundPort }
    }

    /// Serves until graceful shutdown; then (several nodes) the sessions are handed to other nodes (close 4101), both
    /// listeners stop accepting and drain their connections (sockets get close 4100, requests in flight finish)
    /// within the transport's `drainTimeout`, and the store is flushed.
    public func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            if let metricsServer { group.addTask { try await metricsServer.run() } }
            group.addTask { try await self.server.run() }
            try await group.waitForAll()
        }
        hub.flushWrites()
        logger.info("stopped: connections drained, store flushed")
    }
}

extension Logger {
    /// A copy with one more metadata value.
    func with(_ key: String, _ value: String) -> Logger {
        var logger = self
        logger[metadataKey: key] = "\(value)"
        return logger
    }
}
