import CoreMetrics
import NIOConcurrencyHelpers
import Prometheus

/// One counter per error code under one metric name (`label{code="…"}`). The counters of the known codes are made
/// in `init` and looked up without a lock; a code outside them (none today) gets its counter on first use, under a
/// lock.
final class CodeCounters: Sendable {
    /// The metric's name.
    let label: String
    private let factory: PrometheusMetricsFactory
    private let known: [String: CoreMetrics.Counter]
    private let others = NIOLockedValueBox<[String: CoreMetrics.Counter]>([:])

    /// Makes the counters of `codes` (duplicates are made once).
    init(label: String, codes: [String], factory: PrometheusMetricsFactory) {
        self.label = label
        self.factory = factory
        var known: [String: CoreMetrics.Counter] = [:]
        for code in codes where known[code] == nil {
            known[code] = CoreMetrics.Counter(label: label, dimensions: [("code", code)], factory: factory)
        }
        self.known = known
    }

    /// Counts one occurrence of `code`.
    func increment(_ code: String) {
        if let counter = known[code] {
            counter.increment()
            return
        }
        let counter = others.withLockedValue { counters in
            if let existing = counters[code] { return existing }
            let made = CoreMetrics.Counter(label: label, dimensions: [("code", code)], factory: factory)
            counters[code] = made
            return made
        }
        counter.increment()
    }
}
