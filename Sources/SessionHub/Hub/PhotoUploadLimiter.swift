import PongWire

/// Photo bytes allowed per user and per client address, each a `KeyedRateLimiter` whose tokens are bytes. Pure: the
/// caller passes `now`.
///
/// The user is checked first, so one user that is itself limited does not also drain its address's budget (which
/// the other phones behind it share).
package struct PhotoUploadLimiter: Sendable {
    private var byUser: KeyedRateLimiter<UserID>
    private var byAddress: KeyedRateLimiter<String>

    /// `userBurst` bytes at once per user, refilled at `userPerSecond`; the same per address. A burst below the
    /// largest photo is raised to it, so every valid photo can pass eventually.
    package init(userBurst: Double, userPerSecond: Double, addressBurst: Double, addressPerSecond: Double) {
        let least = Double(ProfilePhoto.maxBytes)
        byUser = KeyedRateLimiter(capacity: max(userBurst, least), perSecond: userPerSecond)
        byAddress = KeyedRateLimiter(capacity: max(addressBurst, least), perSecond: addressPerSecond)
    }

    /// Nil when an upload of `bytes` may proceed (they are taken from both budgets); otherwise the whole seconds to
    /// wait (for `Retry-After`).
    package mutating func attempt(user: UserID, address: String, bytes: Int, now: ContinuousClock.Instant) -> Int? {
        let cost = Double(max(bytes, 1))
        if let wait = byUser.attempt(user, cost: cost, now: now) { return wait }
        return byAddress.attempt(address, cost: cost, now: now)
    }
}

/// When the purge of unjoined guests may run next: at most once per `interval`. Pure: the caller passes `now`.
package struct PurgeSchedule: Sendable {
    /// Least time between two runs.
    package let interval: Duration
    private var lastRun: ContinuousClock.Instant?

    package init(interval: Duration) {
        self.interval = interval
    }

    /// Whether a run is due at `now`; a due run counts as started.
    package mutating func due(now: ContinuousClock.Instant) -> Bool {
        if let lastRun, lastRun.duration(to: now) < interval { return false }
        lastRun = now
        return true
    }
}
