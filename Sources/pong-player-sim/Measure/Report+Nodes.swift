import Histogram
import PongWire

extension Report {
    /// Several nodes (`nodes` in the JSON): joins answered per `--server`, phones per node at the end, 4101s
    /// followed, failovers and their times, phones that never came back. Nil for a run against one node that saw
    /// no 4101 and no failover.
    struct Nodes: Hashable, Sendable {
        /// A count of one node, `host:port`.
        struct Count: Hashable, Sendable {
            var node: String
            var count: Int
        }

        /// Joins each node answered, the `--server` nodes in order (zeros included).
        var joins: [Count]
        /// Phones whose socket was on each node at the end: the `--server` nodes, then any other node, sorted.
        var phonesAtEnd: [Count]
        var moves4101: Int
        var failovers: Int
        /// Socket lost → `welcome` on the new node.
        var failoverMs: Tail
        var neverBack: Int

        /// The figures of `values`, or nil when there is nothing of several nodes to tell.
        init?(_ values: SimStats.Values) {
            guard values.servers.count > 1 || values.moves > 0 || values.failovers > 0 else { return nil }
            joins = values.servers.map { Count(node: $0, count: values.joinsByServer[$0] ?? 0) }
            let others = Set(values.phonesByNode.keys).subtracting(values.servers).sorted()
            phonesAtEnd = (values.servers + others).map { Count(node: $0, count: values.phonesByNode[$0] ?? 0) }
            moves4101 = values.moves
            failovers = values.failovers
            failoverMs = Report.tail(values.failoverTime)
            neverBack = values.neverBack
        }

        /// `{"joins":{node:n…},"phonesAtEnd":{node:n…},"moves4101","failovers","failoverMs":{"p50","p95","max"},"neverBack"}`.
        var jsonObject: String {
            func counts(_ list: [Count]) -> String {
                "{" + list.map { "\(JSONText.quote($0.node)):\($0.count)" }.joined(separator: ",") + "}"
            }
            return #"{"joins":\#(counts(joins)),"phonesAtEnd":\#(counts(phonesAtEnd)),"moves4101":\#(moves4101),"#
                + #""failovers":\#(failovers),"failoverMs":\#(failoverMs.jsonObject),"neverBack":\#(neverBack)}"#
        }

        /// The table's lines.
        var lines: [String] {
            func counts(_ list: [Count]) -> String {
                list.map { "\($0.node) \($0.count)" }.joined(separator: ", ")
            }
            return [
                "  joins per node   \(counts(joins))",
                "  phones at end    \(counts(phonesAtEnd))",
                "  moved (4101)     \(moves4101) followed",
                "  failovers        \(failovers), lost → welcome on another node \(failoverMs.text)",
                "  never back       \(neverBack) phones lost and not resumed",
            ]
        }
    }

    /// p50, p95 and max of a delay, ms.
    struct Tail: Hashable, Sendable {
        var p50: Double?
        var p95: Double?
        var max: Double?

        /// `{"p50","p95","max"}` (null when nothing was measured).
        var jsonObject: String {
            #"{"p50":\#(Report.number(p50)),"p95":\#(Report.number(p95)),"max":\#(Report.number(max))}"#
        }

        /// `p50 … ms  p95 … ms  max … ms`, or `-`.
        var text: String {
            guard let p50, let p95, let max else { return "-" }
            return "p50 \(p50) ms  p95 \(p95) ms  max \(max) ms"
        }
    }

    /// p50/p95/max in ms, rounded to 0.1 ms.
    static func tail(_ histogram: Histogram<UInt64>) -> Tail {
        guard histogram.totalCount > 0 else { return Tail() }
        func ms(_ micros: UInt64) -> Double { (Double(micros) / 100).rounded() / 10 }
        return Tail(p50: ms(histogram.valueAtPercentile(50)), p95: ms(histogram.valueAtPercentile(95)),
                    max: ms(histogram.max))
    }
}
