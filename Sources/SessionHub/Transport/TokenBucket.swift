/// A token bucket: `capacity` events at once, refilled at `perSecond`. Pure: the caller passes `now`.
///
/// Used for message floods on a socket (→ close 4008) and for join attempts per client address (→ 429).
package struct TokenBucket: Sendable, Equatable {
    /// Most events allowed in a burst.
    package let capacity: Double
    /// Sustained events per second.
    package let perSecond: Double
    private var tokens: Double
    private var updated: ContinuousClock.Instant

    package init(capacity: Double, perSecond: Double, now: ContinuousClock.Instant) {
        self.capacity = capacity
        self.perSecond = perSecond
        self.tokens = capacity
        self.updated = now
    }

    /// Takes one token if there is one; returns whether the event may proceed.
    package mutating func take(now: ContinuousClock.Instant) -> Bool {
        take(1, now: now)
    }

    /// Seconds until a token is available (0 when one is available now).
    package mutating func secondsUntilAvailable(now: ContinuousClock.Instant) -> Double {
        refill(now: now)
        return tokens >= 1 ? 0 : (1 - tokens) / perSecond
    }

    /// Takes `cost` tokens (e.g. bytes) if there are that many; returns whether the event may proceed. A cost over
    /// `capacity` never proceeds.
    package mutating func take(_ cost: Double, now: ContinuousClock.Instant) -> Bool {
        refill(now: now)
        guard tokens >= cost else { return false }
        tokens -= cost
        return true
    }

    /// Seconds until `cost` tokens are available (0 when they are now; infinity when `cost` is over `capacity`).
    package mutating func secondsUntilAvailable(_ cost: Double, now: ContinuousClock.Instant) -> Double {
        refill(now: now)
        guard cost <= capacity else { return .infinity }
        return tokens >= cost ? 0 : (cost - tokens) / perSecond
    }

    private mutating func refill(now: ContinuousClock.Instant) {
        let elapsed = updated.duration(to: now)
        guard elapsed > .zero else { return }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        tokens = min(capacity, tokens + seconds * perSecond)
        updated = now
    }
}

/// Token buckets per key (a client address) in two generations, so memory stays bounded without ever scanning the
/// table. Pure.
///
/// A bucket left alone for `refillTime` (capacity / perSecond) is full again, and a full bucket is the same as none.
/// So every `refillTime` the current generation becomes the previous one and the previous one is dropped whole: a
/// key dropped that way was last touched at least `refillTime` before. A key found in the previous generation
/// moves to the current one. Each attempt costs O(1); the old generation is freed in one piece.
package struct KeyedRateLimiter<Key: Hashable & Sendable>: Sendable {
    private let capacity: Double
    private let perSecond: Double
    private let refillTime: Duration
    private var current: [Key: TokenBucket] = [:]
    private var previous: [Key: TokenBucket] = [:]
    private var rotatedAt: ContinuousClock.Instant?

    /// `capacity` attempts at once per key, refilled at `perSecond` (10 a minute: capacity 10, 10/60 per second).
    package init(capacity: Double, perSecond: Double) {
        self.capacity = capacity
        self.perSecond = perSecond
        let seconds = capacity / max(perSecond, 1e-9)
        refillTime = .nanoseconds(Int64(min(seconds, 86_400) * 1e9))
    }

    /// Nil when the attempt may proceed; otherwise the whole seconds to wait (for `Retry-After`).
    package mutating func attempt(_ key: Key, now: ContinuousClock.Instant) -> Int? {
        attempt(key, cost: 1, now: now)
    }

    /// Like `attempt`, without taking a token: nil when `key` has one now; otherwise the whole seconds to wait.
    package mutating func wait(for key: Key, now: ContinuousClock.Instant) -> Int? {
        rotate(now: now)
        guard var bucket = current.removeValue(forKey: key) ?? previous.removeValue(forKey: key) else { return nil }
        defer { current[key] = bucket }
        let seconds = bucket.secondsUntilAvailable(now: now)
        return seconds > 0 ? max(1, Int(seconds.rounded(.up))) : nil
    }

    /// Keys currently tracked (both generations).
    package var trackedKeys: Int { current.count + previous.count }

    /// Like `attempt(_:now:)` for an event that costs `cost` tokens (e.g. bytes): nil when it may proceed (the cost is
    /// taken), otherwise the whole seconds until it could (at least 1; a cost over the capacity waits a full refill).
    package mutating func attempt(_ key: Key, cost: Double, now: ContinuousClock.Instant) -> Int? {
        rotate(now: now)
        var bucket = current.removeValue(forKey: key) ?? previous.removeValue(forKey: key)
            ?? TokenBucket(capacity: capacity, perSecond: perSecond, now: now)
        defer { current[key] = bucket }
        if bucket.take(cost, now: now) { return nil }
        let wait = bucket.secondsUntilAvailable(min(cost, capacity), now: now)
        return max(1, Int(min(wait, 86_400).rounded(.up)))
    }

    private mutating func rotate(now: ContinuousClock.Instant) {
        guard let rotatedAt else {
            self.rotatedAt = now
            return
        }
        guard now - rotatedAt >= refillTime else { return }
        // Two periods without a rotation: both generations are full buckets.
        previous = now - rotatedAt >= refillTime * 2 ? [:] : current
        current = [:]
        self.rotatedAt = now
    }
}
