import PongWire
import Testing
@testable import pong_player_sim

@Suite("Report and run bookkeeping")
struct ReportTests {
    @Test("the JSON line has the documented keys in order, ms percentiles and null for what was not measured")
    func jsonLine() {
        var values = SimStats.Values()
        values.players = 8
        values.ready = 7
        values.errors = ["too_many_attempts": 2, "close_4003": 1]
        values.reconnects = 3
        _ = values.joinToReady.record(2_500_000)
        values.score = .init(truePositives: 3, falsePositives: 1, falseNegatives: 0)
        let line = Report(values).jsonLine
        #expect(line == #"{"players":8,"ready":7,"errors":3,"joinToReadyMs":{"p50":2500,"p99":2500},"#
            + #""bounceLatencyMs":{"p50":null,"p99":null},"bounceF1":0.8571,"reconnects":3}"#)
        let table = Report.table(values, wallSeconds: 30)
        #expect(table.contains("too_many_attempts") && table.contains("close_4003"))
    }

    @Test("a restart and vanishing phones add their keys after the documented ones")
    func restartAndVanishKeys() {
        let stats = SimStats()
        stats.update { $0.restartCloses = 2 }
        stats.resumed(afterSeconds: 1.2, restart: true, at: .seconds(10))
        stats.resumed(afterSeconds: 1.5, restart: true, at: .seconds(10.3))
        stats.vanished(PlayerID("p1"), at: .seconds(20))
        stats.sawReconnecting([PlayerID("p1"), PlayerID("p2")], at: .seconds(30))
        let line = Report(stats.snapshot).jsonLine
        #expect(line.hasSuffix(#""reconnects":0,"restart":{"closes4100":2,"resumed":2,"#
            + #""reconnectMs":{"p50":1200.1,"p90":1500,"max":1500.2},"resumeSpreadMs":300,"bouncesAfter":0},"#
            + #""vanish":{"vanished":1,"seen":1,"toReconnectingMs":{"p50":10000,"p90":10000,"max":10002.4}}}"#),
                "\(line) (HdrHistogram's 3 significant digits)")
    }

    @Test("a host starts when every phone is ready or failed and at least two are ready; ends when all stopped")
    func coordinatorDecisions() {
        var counts = RunCoordinator.SessionCounts(phones: 3)
        counts.ready = 2
        #expect(RunCoordinator.decide(counts) == .none)
        counts.failedEarly = 1
        #expect(RunCoordinator.decide(counts) == .start)
        counts.startRequested = true
        counts.doneStreaming = 3
        #expect(RunCoordinator.decide(counts) == .end)
        counts.endRequested = true
        counts.finished = 2
        #expect(RunCoordinator.decide(counts) == .none)
        counts.finished = 3
        #expect(RunCoordinator.decide(counts) == .none, "not before the end call came back")
        counts.endAnswered = true
        #expect(RunCoordinator.decide(counts) == .over)
        var lonely = RunCoordinator.SessionCounts(phones: 1)
        lonely.ready = 1
        #expect(RunCoordinator.decide(lonely) == .none, "start needs two ready players")
    }
}
