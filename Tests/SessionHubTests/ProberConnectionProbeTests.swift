@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Connection probe state machine")
struct ProberConnectionProbeTests {
    let t0 = ContinuousClock.now

    private func ms(_ value: Int) -> ContinuousClock.Instant { t0 + .milliseconds(value) }

    @Test("start sends ping 1 with t in µs from the epoch and wakes up 80 ms later")
    func start() {
        var probe = ConnectionProbe(epoch: t0 - .seconds(5))
        #expect(probe.start(now: t0) == [.sendPing(ProbeStamp(id: 1, t: 5_000_000)), .wakeUp(at: ms(80))])
        #expect(probe.isRunning)
        #expect(probe.start(now: ms(10)).isEmpty)
    }

    @Test("ten idle pings 80 ms apart, then the upload request at the idle limit (0.8 s) without pongs")
    func idleSchedule() {
        var probe = ConnectionProbe(epoch: t0)
        _ = probe.start(now: t0)
        for index in 1..<9 {
            let ping = ProbeStamp(id: index + 1, t: Int64(80_000 * index))
            #expect(probe.tick(now: ms(80 * index)) == [.sendPing(ping), .wakeUp(at: ms(80 * index + 80))])
        }
        #expect(probe.tick(now: ms(720)) == [.sendPing(ProbeStamp(id: 10, t: 720_000)), .wakeUp(at: ms(800))])
        #expect(probe.tick(now: ms(790)) == [.wakeUp(at: ms(800))])
        #expect(probe.tick(now: ms(800)) == [.requestUpload(ProbeUpload(seconds: 2)), .wakeUp(at: ms(1200))])
        #expect(probe.tick(now: ms(1200)) == [.sendPing(ProbeStamp(id: 11, t: 1_200_000)), .wakeUp(at: ms(1280))])
    }

    @Test("a late timer sends one ping, not a burst, and keeps 80 ms to the next")
    func lateTimer() {
        var probe = ConnectionProbe(epoch: t0)
        _ = probe.start(now: t0)
        #expect(probe.tick(now: ms(500)) == [.sendPing(ProbeStamp(id: 2, t: 500_000)), .wakeUp(at: ms(580))])
        #expect(probe.tick(now: ms(579)) == [.wakeUp(at: ms(580))])
    }

    @Test("pongs with unknown ids, a changed t, or a repeated id are ignored")
    func ignoredPongs() {
        var probe = ConnectionProbe(epoch: t0)
        _ = probe.start(now: t0)
        for id in [0, -1, 2, 99, Int.min, Int.max] {
            #expect(probe.pong(ProbeStamp(id: id, t: 0), now: ms(20)).isEmpty)
        }
        #expect(probe.pong(ProbeStamp(id: 1, t: 7), now: ms(20)).isEmpty)
        #expect(probe.pongsReceived == 0)
        #expect(probe.pong(ProbeStamp(id: 1, t: 0), now: ms(20)).isEmpty)
        #expect(probe.pong(ProbeStamp(id: 1, t: 0), now: ms(45)).isEmpty)
        #expect(probe.pongsReceived == 1)
        #expect(probe.pings.first?.roundTrip == .milliseconds(20))
    }

    @Test("the last idle pong requests the upload at once")
    func uploadOnLastPong() {
        var probe = ConnectionProbe(epoch: t0)
        _ = probe.start(now: t0)
        for index in 1..<10 { _ = probe.tick(now: ms(80 * index)) }
        for id in 1...9 { #expect(probe.pong(ProbeStamp(id: id, t: Int64(80_000 * (id - 1))), now: ms(730)).isEmpty) }
        #expect(probe.pong(ProbeStamp(id: 10, t: 720_000), now: ms(740))
                == [.requestUpload(ProbeUpload(seconds: 2)), .wakeUp(at: ms(1140))])
    }

    @Test("filler counts only inside the upload window")
    func fillerWindow() {
        var probe = ConnectionProbe(epoch: t0)
        _ = probe.start(now: t0)
        let beforeUpload = probe.fillerReceived(bytes: 1000, now: ms(10))
        #expect(!beforeUpload)
        for index in 1..<10 { _ = probe.tick(now: ms(80 * index)) }
        _ = probe.tick(now: ms(800))
        let first = probe.fillerReceived(bytes: 1000, now: ms(850))
        let last = probe.fillerReceived(bytes: 500, now: ms(2999))
        let afterWindow = probe.fillerReceived(bytes: 1000, now: ms(3000))
        #expect(first && last && !afterWindow)
        #expect(probe.fillerBytes == 1500)
    }

    @Test("the result comes at the end of the window, and nothing after it")
    func finishedIgnoresEvents() {
        var probe = ConnectionProbe(epoch: t0)
        _ = probe.start(now: t0)
        for index in 1..<10 { _ = probe.tick(now: ms(80 * index)) }
        _ = probe.tick(now: ms(800))
        #expect(probe.tick(now: ms(3000)) == [.failed(.tooFewPongs(received: 0, needed: 5))])
        #expect(!probe.isRunning)
        #expect(probe.tick(now: ms(3100)).isEmpty)
        #expect(probe.pong(ProbeStamp(id: 1, t: 0), now: ms(3100)).isEmpty)
        let counted = probe.fillerReceived(bytes: 10, now: ms(3100))
        #expect(!counted)
    }

    @Test("cancel ends the test without a result")
    func cancel() {
        var probe = ConnectionProbe(epoch: t0)
        _ = probe.start(now: t0)
        probe.cancel()
        #expect(!probe.isRunning)
        #expect(probe.tick(now: ms(80)).isEmpty)
        #expect(probe.pong(ProbeStamp(id: 1, t: 0), now: ms(20)).isEmpty)
        #expect(probe.start(now: ms(100)).isEmpty)
    }

    @Test("pings and upload requests map to their server messages")
    func serverMessages() {
        #expect(ConnectionProbe.Action.sendPing(ProbeStamp(id: 3, t: 9)).serverMessage
                == .probePing(ProbeStamp(id: 3, t: 9)))
        #expect(ConnectionProbe.Action.requestUpload(ProbeUpload(seconds: 2)).serverMessage
                == .probeUpload(ProbeUpload(seconds: 2)))
        #expect(ConnectionProbe.Action.wakeUp(at: t0).serverMessage == nil)
        #expect(ConnectionProbe.Action.failed(.noFiller).serverMessage == nil)
    }

    @Test("failures are told to the phone as connectionTest {failure} by code, and logged with their counts")
    func failures() {
        #expect(ConnectionProbeFailure.noFiller.report
                == ConnectionTestFailure(failure: "no_filler"))
        #expect(ConnectionProbeFailure.noFiller.report.message == "Connection error, please try again")
        #expect(ConnectionProbeFailure.tooFewPongs(received: 2, needed: 5).code == "too_few_pongs")
        #expect(ConnectionProbeFailure.tooFewPongsUnderLoad(received: 1, needed: 3).description
                == "too_few_pongs_under_load: 1 of 3 pongs under load")
        #expect(ConnectionProbeFailure.noFiller.code == "no_filler")
    }
}
