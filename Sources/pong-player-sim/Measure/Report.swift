import Histogram

import Foundation

/// The run's summary: the end-of-run table and the one-line JSON (`--json`).
struct Report: Hashable, Sendable {
    /// p50 and p99 of a latency, ms (nil when nothing was measured).
    struct Percentiles: Hashable, Sendable {
        /// Median, ms.
        var p50: Double?
        /// 99th percentile, ms.
        var p99: Double?
    }

    /// Phones started.
    var players: Int
    /// Phones the lobby showed ready.
    var ready: Int
    /// All errors counted.
    var errors: Int
    /// Join → ready.
    var joinToReadyMs: Percentiles
    /// Packet due → own `bounce` received.
    var bounceLatencyMs: Percentiles
    /// F1 of bounces against labels at ±10 ms (nil when nothing could be scored).
    var bounceF1: Double?
    /// Reconnects.
    var reconnects: Int
    /// Server restarts seen: 4100 closes, seats resumed after them, socket lost → resumed (ms) and the spread of
    /// the resumes (first to last, ms); nil when no 4100 came.
    var restart: Restart?
    /// Vanishing phones: how many vanished, how many a lobby showed `reconnecting`, and after how long (ms); nil
    /// without `--vanish-count`.
    var vanish: Vanish?
    /// Several nodes: per-node counts, 4101s, failovers; nil for one node without any (`Report+Nodes.swift`).
    var nodes: Nodes?

    /// p50, p90 and max of a delay, ms.
    struct Spread: Hashable, Sendable {
        var p50: Double?
        var p90: Double?
        var max: Double?
    }

    /// Restart figures (`restart` in the JSON).
    struct Restart: Hashable, Sendable {
        var closes4100: Int
        var resumed: Int
        var reconnectMs: Spread
        var resumeSpreadMs: Double?
        var bouncesAfter: Int
    }

    /// Vanish figures (`vanish` in the JSON).
    struct Vanish: Hashable, Sendable {
        var vanished: Int
        var seen: Int
        var toReconnectingMs: Spread
    }

    /// The report of `values`.
    init(_ values: SimStats.Values) {
        players = values.players
        ready = values.ready
        errors = values.errorTotal
        joinToReadyMs = Self.percentiles(values.joinToReady)
        bounceLatencyMs = Self.percentiles(values.bounceLatency)
        bounceF1 = values.score.f1
        reconnects = values.reconnects
        if values.restartCloses > 0 || values.resumedAfterRestart > 0 {
            let spread = values.firstRestartResume.flatMap { first in
                values.lastRestartResume.map { (($0.seconds(since: first) * 10_000).rounded() / 10) }
            }
            restart = Restart(closes4100: values.restartCloses, resumed: values.resumedAfterRestart,
                              reconnectMs: Self.spread(values.restartReconnectTime), resumeSpreadMs: spread,
                              bouncesAfter: values.bouncesAfterRestart)
        }
        nodes = Nodes(values)
        if values.vanishes > 0 {
            vanish = Vanish(vanished: values.vanishes, seen: values.vanishesSeen,
                            toReconnectingMs: Self.spread(values.vanishToReconnecting))
        }
    }

    /// p50/p90/max in ms, rounded to 0.1 ms.
    static func spread(_ histogram: Histogram<UInt64>) -> Spread {
        guard histogram.totalCount > 0 else { return Spread() }
        func ms(_ micros: UInt64) -> Double { (Double(micros) / 100).rounded() / 10 }
        return Spread(p50: ms(histogram.valueAtPercentile(50)), p90: ms(histogram.valueAtPercentile(90)),
                      max: ms(histogram.max))
    }

    /// The JSON line, keys in the documented order: `{"players", "ready", "errors", "joinToReadyMs": {"p50",
    /// "p99"}, "bounceLatencyMs": {"p50", "p99"}, "bounceF1", "reconnects"}` (unknown values are `null`).
    var jsonLine: String {
        let number = Self.number
        func pair(_ p: Percentiles) -> String { #"{"p50":\#(number(p.p50)),"p99":\#(number(p.p99))}"# }
        func spread(_ s: Spread) -> String {
            #"{"p50":\#(number(s.p50)),"p90":\#(number(s.p90)),"max":\#(number(s.max))}"#
        }
        let f1 = bounceF1.map { ($0 * 10000).rounded() / 10000 }
        var line = #"{"players":\#(players),"ready":\#(ready),"errors":\#(errors),"joinToReadyMs":\#(pair(joinToReadyMs)),"#
            + #""bounceLatencyMs":\#(pair(bounceLatencyMs)),"bounceF1":\#(number(f1)),"reconnects":\#(reconnects)"#
        if let restart {
            line += #","restart":{"closes4100":\#(restart.closes4100),"resumed":\#(restart.resumed),"#
                + #""reconnectMs":\#(spread(restart.reconnectMs)),"resumeSpreadMs":\#(number(restart.resumeSpreadMs)),"#
                + #""bouncesAfter":\#(restart.bouncesAfter)}"#
        }
        if let vanish {
            line += #","vanish":{"vanished":\#(vanish.vanished),"seen":\#(vanish.seen),"#
                + #""toReconnectingMs":\#(spread(vanish.toReconnectingMs))}"#
        }
        if let nodes { line += #","nodes":"# + nodes.jsonObject }
        return line + "}"
    }

    /// A JSON number: an integer when whole, `null` when unknown.
    static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// p50/p99 in ms, rounded to 0.1 ms.
    static func percentiles(_ histogram: Histogram<UInt64>) -> Percentiles {
        guard histogram.totalCount > 0 else { return Percentiles(p50: nil, p99: nil) }
        func ms(_ p: Double) -> Double { (Double(histogram.valueAtPercentile(p)) / 100).rounded() / 10 }
        return Percentiles(p50: ms(50), p99: ms(99))
    }

    /// The end-of-run table.
    static func table(_ values: SimStats.Values, wallSeconds: Double) -> String {
        let report = Report(values)
        func pct(_ p: Percentiles) -> String {
            guard let p50 = p.p50, let p99 = p.p99 else { return "-" }
            return "p50 \(p50) ms  p99 \(p99) ms"
        }
        func spreadText(_ s: Spread) -> String {
            guard let p50 = s.p50, let p90 = s.p90, let max = s.max else { return "-" }
            return "p50 \(p50) ms  p90 \(p90) ms  max \(max) ms"
        }
        func hist(_ h: Histogram<UInt64>) -> String {
            guard h.totalCount > 0 else { return "" }
            return "  (n \(h.totalCount), max \(Double(h.max / 100) / 10) ms)"
        }
        var lines = [
            "pong-player-sim results (\(Int(wallSeconds.rounded())) s)",
            "  players          \(values.players)",
            "  ready sent       \(values.readySent)",
            "  ready (lobby)    \(values.ready)",
            "  failed journeys  \(values.failed)",
            "  sessions started \(values.sessionsStarted)",
            "  join→ready       \(pct(report.joinToReadyMs))\(hist(values.joinToReady))",
            "  bounce latency   \(pct(report.bounceLatencyMs))\(hist(values.bounceLatency))",
            "  bounces          \(values.bounces) own (\(values.bouncesUnmapped) not mapped to a packet)",
            "  bounce F1 ±10ms  \(report.bounceF1.map { String(($0 * 1000).rounded() / 1000) } ?? "-")"
                + "  (TP \(values.score.truePositives), FP \(values.score.falsePositives), "
                + "FN \(values.score.falseNegatives))",
            "  bounce kind      \(values.score.kindAgreements)/\(values.score.kindChecked) matches of the label's kind "
                + "(bounce→table, hit→racket)",
            "  reconnects       \(values.reconnects)",
            "  resumed          \(values.resumed) seats after a drop or restart; reconnect "
                + "\(spreadText(Self.spread(values.reconnectTime)))",
            "  restarts (4100)  \(values.restartCloses) closes, \(values.resumedAfterRestart) resumed, reconnect "
                + "\(spreadText(report.restart?.reconnectMs ?? Spread())), resumes spread over "
                + "\(report.restart?.resumeSpreadMs.map { "\($0) ms" } ?? "-"), \(values.bouncesAfterRestart) bounces after",
            "  vanished phones  \(values.vanishes), \(values.vanishesSeen) seen reconnecting after "
                + "\(spreadText(report.vanish?.toReconnectingMs ?? Spread()))",
            "  audio packets    \(values.audioPackets)",
            "  audio send lag   \(pct(Self.percentiles(values.sendLag)))  (sim health: packet sent after its due time)",
            "  filler sent      \(values.fillerBytes / 1_000_000) MB",
            "  errors           \(values.errorTotal)",
        ]
        if let nodes = report.nodes { lines += nodes.lines }
        for (code, count) in values.errors.sorted(by: { $0.key < $1.key }) {
            lines.append("    \(code + String(repeating: " ", count: max(1, 28 - code.count))) \(count)")
        }
        let sorted = values.uploadMbps.sorted()
        if let low = sorted.first, let high = sorted.last {
            lines.append("  test uploadMbps  min \(low)  median \(sorted[sorted.count / 2])  max \(high)")
        }
        return lines.joined(separator: "\n")
    }
}
