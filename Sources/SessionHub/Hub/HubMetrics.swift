import CoreMetrics
import NIOConcurrencyHelpers
import Prometheus

/// The hub's metrics, created once (swift-metrics over a Prometheus registry of the hub's own, so nothing global is
/// bootstrapped) and served as Prometheus text on `GET /metrics`.
final class HubMetrics: Sendable {
    /// Where every metric below lives.
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let connectedSockets: CoreMetrics.Gauge
    private let liveSessions: CoreMetrics.Gauge
    private let joins: CoreMetrics.Counter
    private let textMessages: CoreMetrics.Counter
    private let binaryFrames: CoreMetrics.Counter
    private let sockets = NIOLockedValueBox(0)
    private let errors = NIOLockedValueBox<[String: CoreMetrics.Counter]>([:])
    private let rejectedFrames = NIOLockedValueBox<[String: CoreMetrics.Counter]>([:])
    private let mediaFrames: [MediaKind: CoreMetrics.Counter]
    private let bounces: [BounceKind: CoreMetrics.Counter]
    private let bounceLatency: CoreMetrics.Timer

    init() {
        factory = PrometheusMetricsFactory(registry: registry)
        connectedSockets = CoreMetrics.Gauge(label: "pongd_connected_sockets", factory: factory)
        liveSessions = CoreMetrics.Gauge(label: "pongd_live_sessions", factory: factory)
        joins = CoreMetrics.Counter(label: "pongd_joins_total", factory: factory)
        textMessages = CoreMetrics.Counter(label: "pongd_messages_total", dimensions: [("kind", "text")], factory: factory)
        binaryFrames = CoreMetrics.Counter(label: "pongd_messages_total", dimensions: [("kind", "binary")], factory: factory)
        let factory = self.factory
        mediaFrames = Dictionary(uniqueKeysWithValues: MediaKind.allCases.map { kind in
            (kind, CoreMetrics.Counter(label: "pongd_media_frames_total", dimensions: [("kind", kind.rawValue)],
                                       factory: factory))
        })
        bounces = Dictionary(uniqueKeysWithValues: BounceKind.allCases.map { kind in
            (kind, CoreMetrics.Counter(label: "pongd_bounces_total", dimensions: [("kind", kind.rawValue)],
                                       factory: factory))
        })
        bounceLatency = CoreMetrics.Timer(label: "pongd_bounce_latency_seconds", factory: factory)
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

    /// A join succeeded.
    func joined() { joins.increment() }

    /// A message arrived on a socket.
    func message(binary: Bool) { (binary ? binaryFrames : textMessages).increment() }

    /// An error was sent to a client, by its code.
    func error(_ code: String) {
        counter(in: errors, label: "pongd_errors_total", code: code).increment()
    }

    /// A media frame was dropped, by the error code it got (sent to the phone or not: media errors are throttled).
    func mediaRejected(_ code: String) {
        counter(in: rejectedFrames, label: "pongd_media_frames_rejected_total", code: code).increment()
    }

    /// An audio or video frame of a started track was accepted (its codec checked, its audio decoded).
    func mediaFrame(_ kind: MediaKind) { mediaFrames[kind]?.increment() }

    /// A bounce was sent, `latency` after its packet arrived.
    func bounce(_ kind: BounceKind, latency: Duration) {
        bounces[kind]?.increment()
        bounceLatency.recordNanoseconds(ProbeTime.nanoseconds(latency))
    }

    private func counter(in table: NIOLockedValueBox<[String: CoreMetrics.Counter]>, label: String,
                         code: String) -> CoreMetrics.Counter {
        table.withLockedValue { counters in
            if let existing = counters[code] { return existing }
            let made = CoreMetrics.Counter(label: label, dimensions: [("code", code)], factory: factory)
            counters[code] = made
            return made
        }
    }

    /// The Prometheus text exposition of everything.
    func exposition() -> [UInt8] { registry.emitToBuffer() }
}
