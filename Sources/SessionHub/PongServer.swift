import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// pongd as one service: the hub (accounts, sessions, sockets, store) behind the HTTP/WebSocket listener.
///
/// What `pongd serve` runs, and what benchmarks start on an ephemeral port.
public final class PongServer: Service, Sendable {
    private let server: HTTPServer
    private let hub: SessionHub

    /// Opens (or creates) the data folder and restores its live sessions; throws if the folder cannot be used.
    /// `idleTimeout`: a session with no event for this long ends; `gracePeriod`: how long a dropped player's seat is
    /// kept. `transport`: deadlines, connection caps and the output limit; `helloTimeout`: how long a player socket may
    /// wait before `hello`; `maxSocketsPerUser`: WebSockets one user may hold (docs/SECURITY.md).
    public init(host: String = "127.0.0.1", port: Int = 8080, dataDirectory: String, publicBaseURL: String = "",
                idleTimeout: Duration = .seconds(2 * 3600), gracePeriod: Duration = .seconds(60),
                joinBurst: Double = 10, joinsPerMinute: Double = 10,
                transport: TransportLimits = TransportLimits(), helloTimeout: Duration = .seconds(10),
                maxSocketsPerUser: Int = 8,
                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, logger: Logger) throws {
        var session = SessionState.Configuration(gracePeriod: gracePeriod, idleTimeout: idleTimeout)
        session.helloTimeout = helloTimeout
        var configuration = HubConfiguration(dataDirectory: dataDirectory, publicBaseURL: publicBaseURL,
                                             session: session, joinBurst: joinBurst,
                                             joinsPerSecond: joinsPerMinute / 60)
        configuration.maxSocketsPerUser = maxSocketsPerUser
        hub = try SessionHub(configuration: configuration, logger: logger)
        server = HTTPServer(configuration: .init(host: host, port: port, limits: transport), group: group,
                            logger: logger, router: hub.router, webSockets: hub)
    }

    /// The port listened on, once `run()` has bound.
    public var boundPort: Int {
        get async throws { try await server.boundPort }
    }

    public func run() async throws {
        try await server.run()
        hub.flushWrites()
    }
}
