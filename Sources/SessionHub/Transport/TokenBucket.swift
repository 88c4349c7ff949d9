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
        refill(now: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Seconds until a token is available (0 when one is available now).
    package mutating func secondsUntilAvailable(now: ContinuousClock.Instant) -> Double {
        refill(now: now)
        return tokens >= 1 ? 0 : (1 - tokens) / perSecond
    }

    /// Whether the bucket is full (its owner may be forgotten).
    package mutating func isFull(now: ContinuousClock.Instant) -> Bool {
        refill(now: now)
        return tokens >= capacity
    }

    private mutating func refill(now: ContinuousClock.Instant) {
        let elapsed = updated.duration(to: now)
        guard elapsed > .zero else { return }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        tokens = min(capacity, tokens + seconds * perSecond)
        updated = now
    }
}

/// Token buckets per key (a client address), pruning full buckets so memory stays bounded. Pure.
package struct KeyedRateLimiter<Key: Hashable & Sendable>: Sendable {
    private let capacity: Double
    private let perSecond: Double
    private var buckets: [Key: TokenBucket] = [:]
    private var checks = 0

    /// `capacity` attempts at once per key, refilled at `perSecond` (10 a minute: capacity 10, 10/60 per second).
    package init(capacity: Double, perSecond: Double) {
        self.capacity = capacity
        self.perSecond = perSecond
    }

    /// Nil when the attempt may proceed; otherwise the whole seconds to wait (for `Retry-After`).
    package mutating func attempt(_ key: Key, now: ContinuousClock.Instant) -> Int? {
        checks += 1
        if checks % 1024 == 0 { buckets = buckets.filter { _, bucket in var b = bucket; return !b.isFull(now: now) } }
        var bucket = buckets[key] ?? TokenBucket(capacity: capacity, perSecond: perSecond, now: now)
        defer { buckets[key] = bucket }
        if bucket.take(now: now) { return nil }
        return max(1, Int(bucket.secondsUntilAvailable(now: now).rounded(.up)))
    }

    /// Keys currently tracked.
    package var trackedKeys: Int { buckets.count }
}
