import Testing
@testable import SessionHub

@Suite("Rate limiting")
struct TokenBucketTests {
    private let t0 = ContinuousClock.now

    @Test("a bucket allows its burst, then refuses until time refills it")
    func burstThenRefill() {
        var bucket = TokenBucket(capacity: 3, perSecond: 1, now: t0)
        var taken: [Bool] = []
        for _ in 0..<4 { taken.append(bucket.take(now: t0)) }
        #expect(taken == [true, true, true, false])
        let wait = bucket.secondsUntilAvailable(now: t0)
        #expect(wait == 1)
        let early = bucket.take(now: t0 + .milliseconds(500))
        let later = bucket.take(now: t0 + .milliseconds(1600))
        #expect(!early && later)
    }

    @Test("join attempts are limited per address: the 11th in a minute waits, another address does not")
    func perAddress() {
        var limiter = KeyedRateLimiter<String>(capacity: 10, perSecond: 10.0 / 60)
        var results: [Int?] = []
        for _ in 0..<11 { results.append(limiter.attempt("10.0.0.1", now: t0)) }
        #expect(results.prefix(10).allSatisfy { $0 == nil })
        #expect(results.last == 6)
        let other = limiter.attempt("10.0.0.2", now: t0)
        let afterWait = limiter.attempt("10.0.0.1", now: t0 + .seconds(7))
        #expect(other == nil && afterWait == nil)
    }

    @Test("idle addresses are forgotten so the table stays bounded")
    func pruning() {
        var limiter = KeyedRateLimiter<Int>(capacity: 2, perSecond: 1)
        for key in 0..<1000 { _ = limiter.attempt(key, now: t0) }
        #expect(limiter.trackedKeys == 1000)
        for key in 0..<24 { _ = limiter.attempt(10_000 + key, now: t0 + .seconds(10)) }
        #expect(limiter.trackedKeys < 100)
    }
}
