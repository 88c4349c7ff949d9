import Foundation
import Testing
@testable import pong_player_sim
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The simulator's "ask any node" path against real processes: two `--server` nodes, the session's node killed
/// (SIGKILL) mid-stream and its data folder taken over by a pongd on the other port, as a node adopting a dead
/// node's sessions does. Single-node pongd stands in for the cluster: what is tested is the phones' side.
@Suite("Simulator failing over to another node", .serialized, .timeLimit(.minutes(3)))
struct SimFailoverTests {
    @Test("a killed node: every phone's socket is refused, it joins again on the next node and resumes there")
    func failover() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pongd-failover-\(UUID().uuidString)").path
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: folder + ".log")
        }
        let (first, second) = (freeLoopbackPort(), freeLoopbackPort())
        let owner = try PongdProcess(port: first, dataDirectory: folder, drainTimeout: 3)
        try await owner.waitUntilAnswering()

        let (track, labels) = try SimEndToEndTests.clickTrack()
        var settings = PhoneSettings(duration: 12)
        settings.readyTimeout = 60
        // The second node is not up yet: seat 1's first calls find no one there and move on to the first node.
        let servers = [first, second].map { ServerAddress(host: "127.0.0.1", port: $0) }
        let plan = SimRunner.Plan(servers: servers, sessions: 1, playersPerSession: 3, track: track, labels: labels,
                                  ramp: 0, settings: settings, signUpEvery: 0, progressEvery: 60,
                                  runTag: "fo\(UInt32.random(in: 0...UInt32.max))", failoverLimit: 20)
        let runner = SimRunner(plan: plan)
        let run = Task { try await runner.run() }
        let deadline = ContinuousClock.now + .seconds(60)
        while runner.stats.snapshot.ready < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(runner.stats.snapshot.ready == 3)
        try await Task.sleep(for: .seconds(1))

        _ = try await owner.terminate(signal: SIGKILL)
        let adopter = try PongdProcess(port: second, dataDirectory: folder, drainTimeout: 3)
        try await adopter.waitUntilAnswering()
        let values = try await run.value
        _ = try await adopter.terminate()

        #expect(values.failovers == 3, "every phone resumed on the other node")
        #expect(values.neverBack == 0 && values.failed == 0)
        #expect(values.phonesByNode == ["127.0.0.1:\(second)": 3], "\(values.phonesByNode)")
        #expect((values.joinsByServer["127.0.0.1:\(second)"] ?? 0) >= 3, "each phone joined again there")
        #expect(values.failoverTime.max < 15_000_000, "back within 15 s of the kill")
        #expect(values.audioAfterRestart == 0 && values.audioPackets >= 3 * 50 * 10)
        let report = Report(values)
        #expect(report.nodes?.failovers == 3 && report.jsonLine.contains(#""neverBack":0"#))
        let allowed: Set = ["connection_test_failed", "socket_dropped", "http_transport"]
        #expect(Set(values.errors.keys).isSubset(of: allowed), "\(values.errors)")
    }
}
