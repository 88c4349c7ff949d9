import CoreMetrics
import NIOConcurrencyHelpers
import PongWire
import Prometheus

/// The hub's metrics, created once (swift-metrics over a Prometheus registry of the hub's own, so nothing global is
/// bootstrapped) and served as Prometheus text on `GET /metrics`.
///
/// The counters by error code are made up front for every code pongd sends (`HubMetrics+Codes.swift`), so counting
/// one takes no lock; the exposition leaves out those that never counted, as if they were made on first use.
final class HubMetrics: Sendable {
    /// Where every metric below lives.
    let registry = PrometheusCollectorRegistry()
    private let connectedSockets: CoreMetrics.Gauge
    private let liveSessions: CoreMetrics.Gauge
    private let joins: CoreMetrics.Counter
    private let adoptedSessions: CoreMetrics.Counter
    private let forwardedRequests: CoreMetrics.Counter
    private let textMessages: CoreMetrics.Counter
    private let binaryFrames: CoreMetrics.Counter
    private let sockets = NIOLockedValueBox(0)
    private let errors: CodeCounters
    private let rejectedFrames: CodeCounters
    private let mediaFrames: [MediaKind: CoreMetrics.Counter]
    private let bounces: [BounceKind: CoreMetrics.Counter]
    private let bounceLatency: CoreMetrics.Timer

    init() {
        let factory = PrometheusMetricsFactory(registry: registry)
        connectedSockets = CoreMetrics.Gauge(label: "pongd_connected_sockets", factory: factory)
        liveSessions = CoreMetrics.Gauge(label: "pongd_live_sessions", factory: factory)
        joins = CoreMetrics.Counter(label: "pongd_joins_total", factory: factory)
        adoptedSessions = CoreMetrics.Counter(label: "pongd_sessions_adopted_total", factory: factory)
        forwardedRequests = CoreMetrics.Counter(label: "pongd_requests_forwarded_total", factory: factory)
        textMessages = CoreMetrics.Counter(label: "pongd_messages_total", dimensions: [("kind", "text")], factory: factory)
        binaryFrames = CoreMetrics.Counter(label: "pongd_messages_total", dimensions: [("kind", "binary")], factory: factory)
        mediaFrames = Dictionary(uniqueKeysWithValues: MediaKind.allCases.map { kind in
            (kind, CoreMetrics.Counter(label: "pongd_media_frames_total", dimensions: [("kind", kind.rawValue)],
                                       factory: factory))
        })
        bounces = Dictionary(uniqueKeysWithValues: BounceKind.allCases.map { kind in
            (kind, CoreMetrics.Counter(label: "pongd_bounces_total", dimensions: [("kind", kind.rawValue)],
                                       factory: factory))
        })
        bounceLatency = CoreMetrics.Timer(label: "pongd_bounce_latency_seconds", factory: factory)
        errors = CodeCounters(label: "pongd_errors_total", codes: Self.errorCodes, factory: factory)
        rejectedFrames = CodeCounters(label: "pongd_media_frames_rejected_total", codes: Self.mediaRejectionCodes,
                                      factory: factory)
        connectedSockets.record(0)
        liveSessions.record(0)
    }

    /// A player or dashboard socket opened (+1) or closed (−1).
    func socket(_ delta: Int) {
        let count = sockets.withLockedValue { value in
            value += delta
            return value
        }
        connectedSockets.record(count)
    }

    /// The number of live sessions changed.
    func sessions(_ count: Int) { liveSessions.record(count) }

    /// Sessions of a node whose lease ran out were adopted here (several nodes).
    func adopted(_ count: Int) { adoptedSessions.increment(by: Int64(count)) }

    /// A request was forwarded to the session's owner node.
    func forwarded() { forwardedRequests.increment() }

    /// A join succeeded.
    func joined() { joins.increment() }

    /// A message arrived on a socket.
    func message(binary: Bool, count: Int = 1) { (binary ? binaryFrames : textMessages).increment(by: Int64(count)) }

    /// An error was sent to a client, by its code.
    func error(_ code: String) { errors.increment(code) }

    /// A media frame was dropped, by the error code it got (sent to the phone or not: media errors are throttled).
    func mediaRejected(_ code: String) { rejectedFrames.increment(code) }

    /// An audio or video frame of a started track was accepted (its codec checked, its audio decoded).
    func mediaFrame(_ kind: MediaKind) { mediaFrames[kind]?.increment() }

    /// A bounce was sent, `latency` after its packet arrived.
    func bounce(_ kind: BounceKind, latency: Duration) {
        bounces[kind]?.increment()
        bounceLatency.recordNanoseconds(ProbeTime.nanoseconds(latency))
    }

    /// The Prometheus text exposition of everything (by-code counters only once they counted).
    func exposition() -> [UInt8] {
        Self.droppingZeroSeries(of: [errors.label, rejectedFrames.label], from: registry.emitToBuffer())
    }
}
