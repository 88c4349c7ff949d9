@testable import PongWire
import Testing
@testable import SessionHub

/// A phone on the other end of a `ConnectionProbe`: it answers pings after a chosen round trip (or never) and
/// sends filler on a schedule relative to the `probe.upload` request.
struct SimulatedPhone {
    /// Round trip of each ping by id; nil: the pong is lost.
    var roundTrip: (Int) -> Duration? = { _ in .milliseconds(30) }
    /// Answer every ping twice, 1 ms apart.
    var duplicatePongs = false
    /// Filler frames: arrival after the upload request, bytes.
    var filler: [(after: Duration, bytes: Int)] = SimulatedPhone.steadyFiller(bytesPer10ms: 10_000)

    /// Filler arriving every 10 ms from 50 ms after the request for 2 s: slow 1,000-byte frames during the first
    /// 0.4 s when `slowStart`, then `bytesPer10ms` each.
    static func steadyFiller(bytesPer10ms: Int, slowStart: Bool = false) -> [(after: Duration, bytes: Int)] {
        (0..<200).map { index in
            (after: .milliseconds(50 + 10 * index), bytes: slowStart && index < 40 ? 1000 : bytesPer10ms)
        }
    }
}

/// What happened during one simulated test.
struct ProbeRun {
    var pings: [(stamp: ProbeStamp, at: ContinuousClock.Instant)] = []
    var uploadRequestedAt: ContinuousClock.Instant?
    var upload: ProbeUpload?
    var outcome: ConnectionProbe.Action?
    var outcomeAt: ContinuousClock.Instant?

    /// The result of a completed test.
    var result: ConnectionTestResult? {
        if case .completed(let result) = outcome { return result }
        return nil
    }
}

/// Runs `probe` against `phone` from `start`, event by event in time order, until the test ends.
func simulate(_ probe: inout ConnectionProbe, phone: SimulatedPhone, start: ContinuousClock.Instant) -> ProbeRun {
    enum Event { case pong(ProbeStamp), filler(Int) }
    var run = ProbeRun()
    var events: [(at: ContinuousClock.Instant, event: Event)] = []
    var wake: ContinuousClock.Instant?

    func perform(_ actions: [ConnectionProbe.Action], at now: ContinuousClock.Instant) {
        for action in actions {
            switch action {
            case .sendPing(let stamp):
                run.pings.append((stamp, now))
                if let roundTrip = phone.roundTrip(stamp.id) {
                    events.append((now + roundTrip, .pong(stamp)))
                    if phone.duplicatePongs { events.append((now + roundTrip + .milliseconds(1), .pong(stamp))) }
                }
            case .requestUpload(let upload):
                run.upload = upload
                run.uploadRequestedAt = now
                events += phone.filler.map { (now + $0.after, .filler($0.bytes)) }
            case .wakeUp(let at):
                wake = at
            case .completed, .failed:
                run.outcome = action
                run.outcomeAt = now
                wake = nil
            }
        }
    }

    perform(probe.start(now: start), at: start)
    while run.outcome == nil {
        let next = events.indices.min { events[$0].at < events[$1].at }
        if let index = next, wake.map({ events[index].at <= $0 }) ?? true {
            let (at, event) = events.remove(at: index)
            switch event {
            case .pong(let stamp): perform(probe.pong(stamp, now: at), at: at)
            case .filler(let bytes): probe.fillerReceived(bytes: bytes, now: at)
            }
        } else if let at = wake {
            wake = nil
            perform(probe.tick(now: at), at: at)
        } else {
            break
        }
    }
    return run
}

@Suite("Connection probe against a simulated phone")
struct ProberSimulationTests {
    let t0 = ContinuousClock.now

    @Test("known round trips give exact median, p90 and jitter, idle and under load; 8 Mbit/s grades good")
    func exactStatistics() throws {
        let idle: [Int: Int] = [1: 20, 2: 30, 3: 25, 4: 35, 5: 30, 6: 20, 7: 40, 8: 25, 9: 30, 10: 45]
        var phone = SimulatedPhone()
        phone.roundTrip = { id in .milliseconds(idle[id] ?? (100 + (id - 11) * 5)) }
        var probe = ConnectionProbe(epoch: t0)
        let run = simulate(&probe, phone: phone, start: t0)
        #expect(run.pings.count == 30)
        #expect(run.result == ConnectionTestResult(
            uploadMbps: 8, rttMs: .init(median: 30, p90: 40.5), rttUnderLoadMs: .init(median: 147.5, p90: 185.5),
            jitterMs: 10.6))
        #expect(run.result?.grade == .good)
    }

    @Test("the upload burst starts as soon as every idle ping is answered")
    func earlyUpload() throws {
        var probe = ConnectionProbe(epoch: t0)
        let run = simulate(&probe, phone: SimulatedPhone(), start: t0)
        #expect(run.uploadRequestedAt == t0 + .milliseconds(750))
        #expect(run.upload == ProbeUpload(seconds: 2))
        #expect(run.outcomeAt == t0 + .milliseconds(2950))
    }

    @Test("pings under load run every 80 ms from 0.4 s after the upload request until it ends")
    func loadedPings() throws {
        var probe = ConnectionProbe(epoch: t0)
        let run = simulate(&probe, phone: SimulatedPhone(), start: t0)
        let upload = try #require(run.uploadRequestedAt)
        let loaded = run.pings.dropFirst(10).map { $0.at }
        #expect(loaded == (0..<20).map { upload + .milliseconds(400 + 80 * $0) })
        #expect(run.pings.map(\.stamp.id) == Array(1...30))
    }

    @Test("a slow link finishes no later than 3 s after the start")
    func withinThreeSeconds() throws {
        var phone = SimulatedPhone()
        phone.roundTrip = { id in id == 10 ? nil : .milliseconds(150) }
        var probe = ConnectionProbe(epoch: t0)
        let run = simulate(&probe, phone: phone, start: t0)
        #expect(run.uploadRequestedAt == t0 + .milliseconds(800))
        #expect(run.outcomeAt == t0 + .seconds(3))
        #expect(probe.configuration.maximumDuration == .seconds(3))
        let result = try #require(run.result)
        #expect(result.rttMs == .init(median: 150, p90: 150) && result.jitterMs == 0)
    }

    @Test("the first 0.4 s of filler is discarded as TCP ramp-up", arguments: [
        (10_000, 8.0, ConnectionGrade.good), (3750, 3.0, .fair), (1875, 1.5, .poor),
    ])
    func rampUpDiscarded(bytesPer10ms: Int, mbps: Double, grade: ConnectionGrade) throws {
        var phone = SimulatedPhone()
        phone.filler = SimulatedPhone.steadyFiller(bytesPer10ms: bytesPer10ms, slowStart: true)
        var probe = ConnectionProbe(epoch: t0)
        let result = try #require(simulate(&probe, phone: phone, start: t0).result)
        #expect(result.uploadMbps == mbps)
        #expect(result.grade == grade)
    }

    @Test("duplicate pongs change nothing")
    func duplicates() throws {
        var phone = SimulatedPhone()
        phone.duplicatePongs = true
        var probe = ConnectionProbe(epoch: t0)
        let run = simulate(&probe, phone: phone, start: t0)
        #expect(run.result?.rttMs == .init(median: 30, p90: 30))
        #expect(probe.pongsReceived == 30)
    }

    @Test("no filler fails the test")
    func noFiller() {
        var phone = SimulatedPhone()
        phone.filler = []
        var probe = ConnectionProbe(epoch: t0)
        #expect(simulate(&probe, phone: phone, start: t0).outcome == .failed(.noFiller))
    }

    @Test("zero-byte filler counts as no filler")
    func emptyFiller() {
        var phone = SimulatedPhone()
        phone.filler = SimulatedPhone.steadyFiller(bytesPer10ms: 0)
        var probe = ConnectionProbe(epoch: t0)
        #expect(simulate(&probe, phone: phone, start: t0).outcome == .failed(.noFiller))
    }

    @Test("fewer than 5 idle pongs fail the test")
    func tooFewIdlePongs() {
        var phone = SimulatedPhone()
        phone.roundTrip = { id in id <= 4 || id > 10 ? .milliseconds(30) : nil }
        var probe = ConnectionProbe(epoch: t0)
        let run = simulate(&probe, phone: phone, start: t0)
        #expect(run.outcome == .failed(.tooFewPongs(received: 4, needed: 5)))
        #expect(run.outcomeAt == t0 + .seconds(3))
    }

    @Test("pings unanswered under load count with the time they waited (a bufferbloated uplink), not as a failure")
    func unansweredUnderLoad() throws {
        var phone = SimulatedPhone()
        phone.roundTrip = { id in id <= 12 ? .milliseconds(30) : nil }
        var probe = ConnectionProbe(epoch: t0)
        let run = simulate(&probe, phone: phone, start: t0)
        let result = try #require(run.result)
        let requested = try #require(run.uploadRequestedAt)
        let windowEnd = requested + .milliseconds(2200)
        // 20 pings under load, the first 2 answered in 30 ms, the rest waiting until the window closed.
        let waits = run.pings.filter { $0.stamp.id > 12 }.map { ProbeTime.milliseconds(windowEnd - $0.at) }
        let loaded = ([30.0, 30.0] + waits).sorted()
        #expect(run.pings.count == 30)
        #expect(result.rttUnderLoadMs == RoundTripStats.roundTrip(loaded))
        #expect(result.rttUnderLoadMs.median > 500)
        #expect(result.rttMs.median == 30)
    }

    @Test("a required number of pongs under load still fails the test when not met")
    func requiredLoadedPongs() {
        var phone = SimulatedPhone()
        phone.roundTrip = { id in id <= 12 ? .milliseconds(30) : nil }
        var configuration = ConnectionProbe.Configuration()
        configuration.minLoadedPongs = 3
        var probe = ConnectionProbe(configuration: configuration, epoch: t0)
        #expect(simulate(&probe, phone: phone, start: t0).outcome
                == .failed(.tooFewPongsUnderLoad(received: 2, needed: 3)))
    }

    @Test("pongs that come back after the window closes are not counted as answers")
    func latePongs() throws {
        var phone = SimulatedPhone()
        phone.roundTrip = { id in id <= 10 ? .milliseconds(30) : .milliseconds(2500) }
        var probe = ConnectionProbe(epoch: t0)
        let result = try #require(simulate(&probe, phone: phone, start: t0).result)
        #expect(result.rttUnderLoadMs.median < 2500)  // each counted with its wait to the window's end
        #expect(result.rttUnderLoadMs.median > 500)
    }
}
