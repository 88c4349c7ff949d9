import Benchmark
import NIOCore
import NIOPosix
import PongClient

/// `POST /sessions/{code}/join` throughput, and its floor `GET /healthz` over the same client.
///
/// One iteration (a "run") = `batch` requests, closed-loop: `inFlight` connections at once, `perConnection`
/// requests on each (keep-alive, one at a time), each connection from its own loopback source address. For joins,
/// the guests and sessions (one per `seats` players) are created before the measurement starts, fresh every run,
/// so every measured request is a first join of a guest (guests have no password: no hashing on this path).
final class JoinBench: Sendable {
    /// Requests per run.
    static let batch = 400
    /// Concurrent connections.
    static let inFlight = 8
    /// Requests per connection (the server's join burst per client address).
    static let perConnection = 10
    /// Players per session (the server's default seat limit).
    static let seats = 8

    /// The measured figure: requests completed per second of the run.
    static let requestsPerSecond = BenchmarkMetric.custom("requests/s", polarity: .prefersLarger,
                                                          useScalingFactor: false)

    private let server: BenchServer
    private let group: MultiThreadedEventLoopGroup
    private let addresses = SourceAddresses()

    private init(server: BenchServer, group: MultiThreadedEventLoopGroup) {
        self.server = server
        self.group = group
    }

    /// A server and a one-thread client event loop group.
    static func start() async throws -> JoinBench {
        JoinBench(server: try await BenchServer.start(), group: MultiThreadedEventLoopGroup(numberOfThreads: 1))
    }

    /// Stops the server and the client's event loop.
    func stop() async {
        await server.stop()
        try? await group.shutdownGracefully()
    }

    /// One measured run of joins.
    func joinRun(_ benchmark: Benchmark) async throws {
        let joins = try await prepareJoins()
        try await measure(benchmark, "join") { index, connection in
            try await connection.send(.POST, "/sessions/\(joins[index].code)/join", token: joins[index].token)
        }
    }

    /// One measured run of `GET /healthz`: the same client, connections and addresses, without the hub.
    func healthzRun(_ benchmark: Benchmark) async throws {
        try await measure(benchmark, "healthz") { _, connection in
            try await connection.send(.GET, "/healthz")
        }
    }

    private func measure(
        _ benchmark: Benchmark, _ what: String,
        request: @escaping @Sendable (Int, HTTPConnection) async throws -> HTTPConnection.Reply
    ) async throws {
        benchmark.startMeasurement()
        let start = ContinuousClock.now
        let replies = try await RequestLoad.run(count: Self.batch, inFlight: Self.inFlight,
                                                perConnection: Self.perConnection, port: server.port, group: group,
                                                addresses: addresses, request: request)
        let elapsed = start.duration(to: .now)
        benchmark.stopMeasurement()
        try RequestLoad.expect(200, replies, what)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        benchmark.measurement(Self.requestsPerSecond, Int((Double(Self.batch) / seconds).rounded()))
    }

    /// Set-up, not measured: `batch` guest players plus one guest host and session per `seats` players.
    /// Returns each player's token and session code, players of a session next to each other.
    private func prepareJoins() async throws -> [(token: String, code: String)] {
        let sessions = Self.batch / Self.seats
        // From fresh source addresses too: 100 guests per address stay within the guest quota (200 at once).
        let guests = try await RequestLoad.run(count: Self.batch + sessions, inFlight: Self.inFlight,
                                               perConnection: 100, port: server.port, group: group,
                                               addresses: addresses) { _, connection in
            try await connection.send(.POST, "/auth/guest", json: "{}")
        }
        try RequestLoad.expect(201, guests, "guest")
        let tokens = try guests.map { try $0.body.decode(GuestReply.self).token }
        let hosts = Array(tokens[Self.batch...])
        let created = try await RequestLoad.run(count: sessions, inFlight: Self.inFlight, perConnection: 100,
                                                port: server.port, group: group) { index, connection in
            try await connection.send(.POST, "/sessions", token: hosts[index],
                                      json: #"{"mode":"rally","pointsToWin":11}"#)
        }
        try RequestLoad.expect(201, created, "create session")
        let codes = try created.map { try $0.body.decode(SessionReply.self).code }
        return (0..<Self.batch).map { (token: tokens[$0], code: codes[$0 / Self.seats]) }
    }
}
