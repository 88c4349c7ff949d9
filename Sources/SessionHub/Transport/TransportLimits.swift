#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one client may hold and how long the server waits for it (docs/SECURITY.md): deadlines for a request's
/// head and body and for an idle keep-alive connection, connection caps, the per-socket output limit and the
/// WebSocket keep-alive pings. `pongd serve` sets them from flags; tests shorten them.
public struct TransportLimits: Sendable, Equatable {
    /// A connection's first request head must be complete this long after the accept; a keep-alive connection's
    /// next one this long after the previous response (`keepAliveTimeout`, when longer, applies instead).
    public var requestHeadTimeout: Duration = .seconds(10)
    /// A request's body must be complete this long after its head.
    public var requestBodyTimeout: Duration = .seconds(60)
    /// An idle keep-alive connection is closed this long after its last response.
    public var keepAliveTimeout: Duration = .seconds(30)
    /// Open connections (HTTP and WebSocket) beyond which new ones are closed as soon as they are accepted.
    public var maxConnections: Int = TransportLimits.defaultMaxConnections
    /// Open connections from one client address beyond which its new ones are closed on accept.
    public var maxConnectionsPerAddress: Int = 256
    /// Output queued for one socket that its peer has not read; beyond it the socket is closed (1008).
    public var maxPendingOutputBytes: Int = 4 * 1024 * 1024
    /// The server pings an open WebSocket this long after it last heard a pong (or since it opened).
    public var pingInterval: Duration = .seconds(5)
    /// A WebSocket whose pong has not come this long after the server's ping is closed as dead. With
    /// `pingInterval` it bounds how long a phone that vanished without a FIN looks connected: at most 5 + 8 = 13 s.
    public var pongTimeout: Duration = .seconds(8)
    /// On graceful shutdown: how long open connections get to finish (sockets their 4100 close, requests their
    /// response) before the rest are closed, so the process exits within it whatever clients do.
    public var drainTimeout: Duration = .seconds(10)
    /// While `accept` fails (no descriptor left), the listener waits this long before accepting again.
    public var acceptBackoff: Duration = .seconds(1)
    /// Reverse proxies whose `X-Forwarded-For` or `Forwarded` header names the client (`--trusted-proxy`): every
    /// per-address limit after the request head uses that client address; the per-address connection cap at the
    /// accept does not apply to them (only the total cap does).
    public var trustedProxies = TrustedProxies()

    public init() {}

    /// Descriptors kept free for the database, logs and files whatever the clients do.
    static let reservedDescriptors = 64

    /// The open-file limit less `reservedDescriptors` (at least 16), so the cap is reached before `accept` fails.
    public static var defaultMaxConnections: Int {
        var limit = rlimit()
        #if os(Linux)
        let status = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        #else
        let status = getrlimit(RLIMIT_NOFILE, &limit)
        #endif
        guard status == 0, limit.rlim_cur < 1 << 30 else {  // RLIM_INFINITY is all ones
            return 10_000
        }
        return max(16, Int(limit.rlim_cur) - reservedDescriptors)
    }
}
