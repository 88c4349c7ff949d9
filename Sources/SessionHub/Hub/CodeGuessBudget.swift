/// Failed session-code lookups allowed per client address: a burst, refilled at a sustained rate. Pure: the caller
/// passes `now` (the hub keeps it under a lock).
///
/// A lookup fails when the code names no live session, or a session the caller has no business with (start or end
/// by someone other than the host, a dashboard for someone else's session, a stream or socket without a seat). Every
/// such failure spends one from the address's budget. Once it is spent, every lookup from the address is refused
/// (429 `too_many_code_guesses`, close 4129), live codes included: otherwise "refused" would mean "unknown" and
/// the answer would still tell live from dead. Only the session's own people (its host, its seated players) get
/// through then, and they learn nothing they did not know.
///
/// Addresses are counted by `key(of:)`: an IPv4 address, an IPv6 address's /64 (one subscriber's network holds
/// 2⁶⁴ addresses, so counting single IPv6 addresses would count nothing).
package struct CodeGuessBudget: Sendable {
    private var limiter: KeyedRateLimiter<String>

    /// `burst` failed lookups at once per address, refilled at `perSecond`.
    package init(burst: Double, perSecond: Double) {
        limiter = KeyedRateLimiter(capacity: burst, perSecond: perSecond)
    }

    /// Nil when `address` may look a code up now; otherwise the whole seconds until it may (`Retry-After`).
    package mutating func wait(for address: String, now: ContinuousClock.Instant) -> Int? {
        limiter.wait(for: Self.key(of: address), now: now)
    }

    /// A lookup from `address` failed: spends one. Nil when there was one to spend (answer as unknown); otherwise
    /// the budget was already spent and this is the whole seconds to wait (answer 429 instead).
    package mutating func spend(for address: String, now: ContinuousClock.Instant) -> Int? {
        limiter.attempt(Self.key(of: address), now: now)
    }

    /// What an address is counted as: itself for IPv4 (and anything that is not an IP address), its /64 for IPv6.
    package static func key(of address: String) -> String {
        guard let ip = IPAddress(address) else { return address }
        return ip.isIPv6 ? "\(ip.prefix(64))/64" : ip.description
    }
}
