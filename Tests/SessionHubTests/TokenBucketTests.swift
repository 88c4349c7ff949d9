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
        var limiter = KeyedRateLimiter<Int>(capacity: 2, perSecond: 1)   // a bucket refills in 2 s
        for key in 0..<1000 { _ = limiter.attempt(key, now: t0) }
        #expect(limiter.trackedKeys == 1000)
        for key in 0..<24 { _ = limiter.attempt(10_000 + key, now: t0 + .seconds(10)) }
        #expect(limiter.trackedKeys == 24)
    }

    @Test("a key that is still limited is never forgotten across generations; one idle for the refill time may be")
    func generations() {
        var limiter = KeyedRateLimiter<String>(capacity: 2, perSecond: 1)   // refill time 2 s
        #expect(limiter.attempt("a", now: t0) == nil)
        #expect(limiter.attempt("a", now: t0) == nil)
        #expect(limiter.attempt("a", now: t0) == 1)
        // Other traffic rotates the generations at 2 s; "a" (touched at 0) moves to the previous one.
        _ = limiter.attempt("b", now: t0 + .milliseconds(2100))
        #expect(limiter.trackedKeys == 2)
        // At 2.5 s "a" has refilled 2.5 tokens' worth, capped at 2: allowed twice, then limited again.
        #expect(limiter.attempt("a", now: t0 + .milliseconds(2500)) == nil)
        #expect(limiter.attempt("a", now: t0 + .milliseconds(2500)) == nil)
        #expect(limiter.attempt("a", now: t0 + .milliseconds(2500)) == 1)
        // "a" was found in the previous generation and moved back: the next rotation keeps it.
        _ = limiter.attempt("c", now: t0 + .milliseconds(4200))
        #expect(limiter.attempt("a", now: t0 + .milliseconds(4200)) == nil)
        #expect(limiter.attempt("a", now: t0 + .milliseconds(4200)) == 1)
    }
}
