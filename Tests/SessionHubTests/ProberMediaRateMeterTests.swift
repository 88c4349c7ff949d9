@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Media rate meter")
struct ProberMediaRateMeterTests {
    let t0 = ContinuousClock.now

    private func ms(_ value: Int) -> ContinuousClock.Instant { t0 + .milliseconds(value) }

    /// Records `bytes` every `interval` ms from t0 up to (not including) `until` ms.
    private func feed(_ meter: inout MediaRateMeter, bytes: Int, every interval: Int, until: Int) {
        for time in stride(from: 0, to: until, by: interval) { meter.record(bytes: bytes, now: ms(time)) }
    }

    @Test("25 fps of 5,000-byte frames: 1,000 kbps over the last two full seconds, graded poor")
    func steadyVideo() throws {
        var meter = MediaRateMeter()
        feed(&meter, bytes: 5000, every: 40, until: 3000)
        let rate = try #require(meter.rate(now: ms(3000)))
        #expect(rate == MediaRateMeter.Rate(bytesPerSecond: 125_000, framesPerSecond: 25))
        #expect(rate.kbps == 1000 && rate.mbps == 1 && rate.roundedFPS == 25)
        #expect(rate.grade == .poor)
    }

    @Test("8 Mbit/s grades good, 3 fair")
    func grades() throws {
        var fast = MediaRateMeter()
        feed(&fast, bytes: 10_000, every: 10, until: 3000)
        let good = try #require(fast.rate(now: ms(3000)))
        #expect(good.kbps == 8000 && good.grade == .good && good.framesPerSecond == 100)
        var medium = MediaRateMeter()
        feed(&medium, bytes: 3750, every: 10, until: 3000)
        #expect(medium.rate(now: ms(3000))?.grade == .fair)
    }

    @Test("no reading before the first arrival or within the first second")
    func warmUp() throws {
        var meter = MediaRateMeter()
        #expect(meter.rate(now: t0) == nil)
        feed(&meter, bytes: 1000, every: 100, until: 1000)
        #expect(meter.rate(now: ms(500)) == nil)
        #expect(meter.rate(now: ms(999)) == nil)
        let rate = try #require(meter.rate(now: ms(1000)))
        #expect(rate.bytesPerSecond == 10_000 && rate.framesPerSecond == 10)
    }

    @Test("a partly filled current bucket counts for the time it covers")
    func partialBucket() throws {
        var meter = MediaRateMeter()
        feed(&meter, bytes: 1000, every: 100, until: 2500)
        let rate = try #require(meter.rate(now: ms(2500)))
        #expect(rate.framesPerSecond == 10 && rate.kbps == 80)
    }

    @Test("a stream that stops decays to zero")
    func decay() throws {
        var meter = MediaRateMeter()
        feed(&meter, bytes: 5000, every: 40, until: 3000)
        #expect(try #require(meter.rate(now: ms(4000))).framesPerSecond == 12.5)
        let stale = try #require(meter.rate(now: ms(10_000)))
        #expect(stale.kbps == 0 && stale.framesPerSecond == 0 && stale.grade == .poor)
    }

    @Test("arrivals older than the window are dropped")
    func lateArrivals() throws {
        var meter = MediaRateMeter()
        meter.record(bytes: 1000, now: t0)
        meter.record(bytes: 2000, now: ms(4500))
        meter.record(bytes: 1_000_000, now: ms(1200))
        let rate = try #require(meter.rate(now: ms(5000)))
        #expect(rate.bytesPerSecond == 1000 && rate.framesPerSecond == 0.5)
    }

    @Test("media frames: every byte counts, only video frames count as frames")
    func mediaFrames() throws {
        var meter = MediaRateMeter()
        let video = MediaFrame(codec: .h264, sequence: 0, captureTime: 0, payloadRange: 14..<1014)
        let audio = MediaFrame(codec: .opus, sequence: 0, captureTime: 0, payloadRange: 14..<114)
        for time in stride(from: 0, to: 3000, by: 20) {
            meter.record(audio, now: ms(time))
            if time % 40 == 0 { meter.record(video, now: ms(time)) }
        }
        let rate = try #require(meter.rate(now: ms(3000)))
        #expect(rate.framesPerSecond == 25)
        #expect(rate.bytesPerSecond == 25 * 1014 + 50 * 114)
    }
}
