/// Password attempts (logins and signups) allowed per client address, and logins per account, each a
/// `KeyedRateLimiter`. Pure: the caller passes `now`.
///
/// The address is checked first, so one client cannot also drain an account's budget once it is itself limited;
/// the account key is the email as typed (trimmed, lower-cased), known or not, so the limit behaves the same for
/// unknown emails and tells nothing about which exist.
package struct LoginLimiter: Sendable {
    private var byAddress: KeyedRateLimiter<String>
    private var byAccount: KeyedRateLimiter<String>

    /// `addressBurst` attempts at once per address, refilled at `addressPerSecond`; the same per account.
    package init(addressBurst: Double, addressPerSecond: Double, accountBurst: Double, accountPerSecond: Double) {
        byAddress = KeyedRateLimiter(capacity: addressBurst, perSecond: addressPerSecond)
        byAccount = KeyedRateLimiter(capacity: accountBurst, perSecond: accountPerSecond)
    }

    /// Nil when the attempt may proceed; otherwise the whole seconds to wait (for `Retry-After`). `account` is nil
    /// for a signup (limited per address only).
    package mutating func attempt(address: String, account: String?, now: ContinuousClock.Instant) -> Int? {
        if let wait = byAddress.attempt(address, now: now) { return wait }
        guard let account else { return nil }
        return byAccount.attempt(account, now: now)
    }
}
