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

    init() {
        factory = PrometheusMetricsFactory(registry: registry)
        connectedSockets = CoreMetrics.Gauge(label: "pongd_connected_sockets", factory: factory)
        liveSessions = CoreMetrics.Gauge(label: "pongd_live_sessions", factory: factory)
        joins = CoreMetrics.Counter(label: "pongd_joins_total", factory: factory)
        textMessages = CoreMetrics.Counter(label: "pongd_messages_total", dimensions: [("kind", "text")], factory: factory)
        binaryFrames = CoreMetrics.Counter(label: "pongd_messages_total", dimensions: [("kind", "binary")], factory: factory)
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
        let counter = errors.withLockedValue { counters in
            if let existing = counters[code] { return existing }
            let made = CoreMetrics.Counter(label: "pongd_errors_total", dimensions: [("code", code)], factory: factory)
            counters[code] = made
            return made
        }
        counter.increment()
    }

    /// The Prometheus text exposition of everything.
    func exposition() -> [UInt8] { registry.emitToBuffer() }
}
