import Testing
@testable import BounceDetector

/// The range a stream's own balls keep their centroid to: its quantiles, widened, once enough are learned.
@Suite("Stream centroids")
struct StreamCentroidsTests {
    @Test("no range before the minimum is learned, and none for a bank of 0")
    func noRangeYet() throws {
        #expect(StreamCentroids(capacity: 0) == nil)
        let bank = try #require(StreamCentroids(capacity: 4))
        for hz: Float in [1500, 1600] { bank.learn(hz) }
        #expect(bank.range(minimum: 3, lowerShare: 0.1, upperShare: 0.9, margin: 1.3) == nil)
        bank.learn(1700)
        #expect(bank.range(minimum: 3, lowerShare: 0.1, upperShare: 0.9, margin: 1.3) != nil)
    }

    @Test("the 10–90 % quantiles of ten learned centroids, widened ×1.3: 1500 Hz ÷ 1.3 … 1900 Hz × 1.3")
    func quantilesWidened() throws {
        let bank = try #require(StreamCentroids(capacity: 16))
        for hz: Float in [1900, 1400, 1600, 2000, 1500, 1700, 1800, 1550, 1650, 1750] { bank.learn(hz) }
        let range = try #require(bank.range(minimum: 8, lowerShare: 0.1, upperShare: 0.9, margin: 1.3))
        #expect(abs(range.lowerBound - 1500 / 1.3) < 0.01)
        #expect(abs(range.upperBound - 1900 * 1.3) < 0.01)
        #expect(!range.contains(1100) && range.contains(1200) && !range.contains(2500))
    }

    @Test("a full bank forgets its oldest: after 1000 Hz × 4, 2000 Hz × 4 in a bank of 4 the range is 2000 Hz's")
    func forgetsOldest() throws {
        let bank = try #require(StreamCentroids(capacity: 4))
        for _ in 0..<4 { bank.learn(1000) }
        for _ in 0..<4 { bank.learn(2000) }
        #expect(bank.learned == 4)
        #expect(bank.range(minimum: 4, lowerShare: 0, upperShare: 1, margin: 1) == 2000...2000)
    }

    @Test("a centroid that is not a positive finite number is not learned")
    func ignoresNonsense() throws {
        let bank = try #require(StreamCentroids(capacity: 4))
        for hz: Float in [.nan, .infinity, 0, -5] { bank.learn(hz) }
        #expect(bank.learned == 0)
    }
}
