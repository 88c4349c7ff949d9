import Testing
@testable import SessionHub

@Suite("Prober statistics: round trips and upload rate")
struct ProberStatsTests {
    let t0 = ContinuousClock.now

    private func approx(_ value: Double?, _ expected: Double) -> Bool {
        value.map { abs($0 - expected) < 1e-9 } ?? false
    }

    @Test("median and p90 interpolate between neighbours")
    func quantiles() {
        let samples: [Double] = [19, 11, 15, 10, 18, 12, 17, 13, 16, 14]
        #expect(RoundTripStats.roundTrip(samples) == .init(median: 14.5, p90: 18.1))
        #expect(RoundTripStats.roundTrip([42]) == .init(median: 42, p90: 42))
        #expect(RoundTripStats.roundTrip([]) == .init(median: 0, p90: 0))
        #expect(RoundTripStats.quantile([1, 2, 3], 0.5) == 2)
        #expect(RoundTripStats.quantile([1, 2, 3], 1.5) == 3)
    }

    @Test("jitter is the mean absolute difference of consecutive round trips, in ping order")
    func jitter() {
        #expect(RoundTripStats.jitter([20, 30, 25, 35, 30]) == 7.5)
        #expect(RoundTripStats.jitter([20, 20, 20]) == 0)
        #expect(RoundTripStats.jitter([20]) == 0)
        #expect(RoundTripStats.jitter([10, 12.25]) == 2.3)
    }

    @Test("the rate is measured from the last ramp-up arrival to the last arrival")
    func anchoredRate() throws {
        var estimator = UploadRateEstimator(rampUp: .milliseconds(400))
        estimator.record(bytes: 100, now: t0)
        estimator.record(bytes: 100, now: t0 + .milliseconds(300))
        estimator.record(bytes: 125_000, now: t0 + .milliseconds(1300))
        estimator.record(bytes: 125_000, now: t0 + .milliseconds(2300))
        #expect(approx(estimator.uploadMbps(requestedAt: t0), 1))
        #expect(estimator.frames == 4 && estimator.totalBytes == 250_200)
    }

    @Test("big frames on a slow link are not over-counted")
    func slowLink() throws {
        var estimator = UploadRateEstimator(rampUp: .milliseconds(400))
        estimator.record(bytes: 65_536, now: t0)
        estimator.record(bytes: 65_536, now: t0 + .seconds(1))
        #expect(approx(estimator.uploadMbps(requestedAt: t0 - .milliseconds(50)), 0.524288))
    }

    @Test("all frames inside the ramp-up: first to last arrival; one frame: from the request")
    func fallbacks() throws {
        var estimator = UploadRateEstimator(rampUp: .milliseconds(400))
        estimator.record(bytes: 50_000, now: t0)
        #expect(approx(estimator.uploadMbps(requestedAt: t0 - .milliseconds(100)), 4))
        #expect(estimator.uploadMbps(requestedAt: t0) == nil)
        estimator.record(bytes: 25_000, now: t0 + .milliseconds(100))
        estimator.record(bytes: 25_000, now: t0 + .milliseconds(200))
        #expect(approx(estimator.uploadMbps(requestedAt: t0), 2))
    }

    @Test("no bytes, no rate; an arrival earlier than the last counts as the last")
    func edges() throws {
        var estimator = UploadRateEstimator(rampUp: .milliseconds(400))
        #expect(estimator.uploadMbps(requestedAt: t0) == nil)
        estimator.record(bytes: 0, now: t0)
        estimator.record(bytes: -5, now: t0 + .seconds(1))
        #expect(estimator.uploadMbps(requestedAt: t0) == nil)
        estimator.record(bytes: 100_000, now: t0 + .milliseconds(1500))
        estimator.record(bytes: 100_000, now: t0 + .milliseconds(1400))
        #expect(approx(estimator.uploadMbps(requestedAt: t0), 1.6 / 1.5))
    }

    @Test("durations convert exactly to µs and ns")
    func durations() {
        #expect(ProbeTime.microseconds(.seconds(5) + .nanoseconds(1999)) == 5_000_001)
        #expect(ProbeTime.microseconds(.milliseconds(-1500)) == -1_500_000)
        #expect(ProbeTime.nanoseconds(.milliseconds(80)) == 80_000_000)
        #expect(ProbeTime.milliseconds(.microseconds(1500)) == 1.5)
        #expect(ProbeTime.rounded(7.994, places: 2) == 7.99)
    }
}
