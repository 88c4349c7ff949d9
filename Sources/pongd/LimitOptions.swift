import ArgumentParser
import SessionHub

/// `pongd serve`'s flags for the transport's limits (docs/SECURITY.md); each default is `TransportLimits`'.
struct LimitOptions: ParsableArguments {
    @Option(help: "Open connections beyond which new ones are closed on accept (default: the open-file limit less 64).")
    var maxConnections: Int?

    @Option(help: "Open connections one client address may hold.")
    var maxConnectionsPerAddress = 256

    @Option(help: "WebSockets one user may hold (more are closed with 4008).")
    var maxSocketsPerUser = 8

    @Option(help: "Seconds from the accept to a complete first request head.")
    var requestHeadTimeout: Double = 10

    @Option(help: "Seconds from a request's head to the end of its body.")
    var requestBodyTimeout: Double = 60

    @Option(help: "Seconds an idle keep-alive connection is kept after its last response.")
    var keepAliveTimeout: Double = 30

    @Option(help: "Seconds a player socket may wait before sending hello (then close 4005).")
    var helloTimeout: Double = 10

    @Option(help: "Seconds between the server's pings on a WebSocket that answers them.")
    var pingInterval: Double = 5

    @Option(help: "Seconds a WebSocket has to answer the server's ping before it is closed as dead.")
    var pongTimeout: Double = 8

    @Option(help: """
        Seconds a graceful shutdown (SIGTERM, SIGINT) may take: sockets get close 4100, requests in flight finish, \
        the store is flushed; connections still open then are closed.
        """)
    var drainTimeout: Double = 10

    @Option(help: "KiB of output one socket may leave unread before it is closed (1008).")
    var maxOutputQueueKib = 4096

    /// The limits these flags describe; throws a `ValidationError` for a value out of range.
    func transportLimits() throws -> TransportLimits {
        let seconds = [requestHeadTimeout, requestBodyTimeout, keepAliveTimeout, helloTimeout, pingInterval,
                       pongTimeout, drainTimeout]
        guard seconds.allSatisfy({ (0.001...86_400).contains($0) }) else {
            throw ValidationError("timeouts and intervals must be 0.001–86400 s")
        }
        guard (1...10_000_000).contains(maxConnections ?? 1), (1...10_000_000).contains(maxConnectionsPerAddress),
            (1...10_000).contains(maxSocketsPerUser), (16...4_194_304).contains(maxOutputQueueKib)
        else {
            throw ValidationError("connection caps must be at least 1 and --max-output-queue-kib 16–4194304")
        }
        var limits = TransportLimits()
        if let maxConnections { limits.maxConnections = maxConnections }
        limits.maxConnectionsPerAddress = maxConnectionsPerAddress
        limits.requestHeadTimeout = .milliseconds(Int64(requestHeadTimeout * 1000))
        limits.requestBodyTimeout = .milliseconds(Int64(requestBodyTimeout * 1000))
        limits.keepAliveTimeout = .milliseconds(Int64(keepAliveTimeout * 1000))
        limits.pingInterval = .milliseconds(Int64(pingInterval * 1000))
        limits.pongTimeout = .milliseconds(Int64(pongTimeout * 1000))
        limits.drainTimeout = .milliseconds(Int64(drainTimeout * 1000))
        limits.maxPendingOutputBytes = maxOutputQueueKib * 1024
        return limits
    }
}
