import Foundation
import Testing

/// pong-player-sim against three `pongd serve` nodes on one PostgreSQL (`sim_cluster.py`, issue 15 item 4): calls
/// spread over the nodes, node 0 killed with SIGKILL mid-stream (its phones ask the other nodes and resume there),
/// node 1 drained (its sockets moved with 4101); the simulator's own report is checked.
@Suite("pong-player-sim on several nodes", .serialized)
struct SimClusterTests {
    static let script = RealCorpusToolTests.repository.appendingPathComponent("Benchmarks/Scripts/sim_cluster.py").path

    @Test("3 sessions × 3 phones on three nodes: a kill -9 fails over, a drain moves, every phone back, none lost",
          .enabled(if: PostgresKill9Tests.unavailable == nil, Comment(rawValue: PostgresKill9Tests.unavailable ?? "")),
          .timeLimit(.minutes(3)))
    func killAndDrain() throws {
        let run = try ToolRun.run(Kill9DurabilityTests.python, [
            Self.script, ToolRun.pongd().path, ToolRun.executable("pong-player-sim").path, "--sessions", "3",
            "--players", "3", "--duration", "12", "--drain-after", "6",
        ])
        let line = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                                  "no JSON line (status \(run.status)): \(run.stderr)")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(report["players"] as? Int == 9 && report["ready"] as? Int == 9, "\(report)")
        let nodes = try #require(report["nodes"] as? [String: Any], "\(report)")
        // Session i is created on node i: node 0's 3 phones fail over, node 1's (at least) are moved by its drain.
        #expect((nodes["failovers"] as? Int ?? 0) >= 3, "\(nodes)")
        #expect((nodes["moves4101"] as? Int ?? 0) >= 3, "\(nodes)")
        #expect(nodes["neverBack"] as? Int == 0, "\(nodes)")
        let failover = try #require(nodes["failoverMs"] as? [String: Any])
        #expect((failover["max"] as? Double ?? 1e9) < 15_000, "every phone back within 15 s: \(failover)")
        let joins = try #require(nodes["joins"] as? [String: Int])
        #expect(joins.count == 3 && joins.values.allSatisfy { $0 >= 1 }, "joins went to every node: \(joins)")
        let atEnd = try #require(nodes["phonesAtEnd"] as? [String: Int])
        #expect(atEnd.values.reduce(0, +) == 9 && atEnd.values.contains(9), "all on the last node standing: \(atEnd)")
    }
}
