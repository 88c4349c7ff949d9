import NIOConcurrencyHelpers
import PongWire

/// The hub's quota state (`HubConfiguration.Quotas`, docs/SECURITY.md "Quotas"): guests per address, the user →
/// live sessions index, photo bytes per user and address, the guest purge's schedule; each pure part behind its own
/// lock, each call O(1) in the number of live sessions.
final class QuotaLedger: Sendable {
    /// The limits.
    let limits: HubConfiguration.Quotas
    /// Live sessions by user (host or seat holder), and sessions hosted per user.
    let userSessions = NIOLockedValueBox(UserSessionIndex())
    private let guests: NIOLockedValueBox<KeyedRateLimiter<String>>
    private let sessionCreations: NIOLockedValueBox<KeyedRateLimiter<UserID>>
    private let photoUploads: NIOLockedValueBox<PhotoUploadLimiter>
    private let purges: NIOLockedValueBox<PurgeSchedule>

    init(limits: HubConfiguration.Quotas) {
        self.limits = limits
        guests = NIOLockedValueBox(KeyedRateLimiter(capacity: limits.guestBurst, perSecond: limits.guestsPerSecond))
        sessionCreations = NIOLockedValueBox(KeyedRateLimiter(capacity: limits.sessionBurst,
                                                              perSecond: limits.sessionsPerSecond))
        photoUploads = NIOLockedValueBox(PhotoUploadLimiter(
            userBurst: limits.photoUploadBurstBytes, userPerSecond: limits.photoUploadBytesPerSecond,
            addressBurst: limits.addressPhotoUploadBurstBytes,
            addressPerSecond: limits.addressPhotoUploadBytesPerSecond))
        purges = NIOLockedValueBox(PurgeSchedule(interval: limits.guestPurgeInterval))
    }

    /// Nil when `address` may create a guest now; otherwise the whole seconds to wait. Addresses are counted as the
    /// code-guess budget counts them (an IPv6 address by its /64: `CodeGuessBudget.key(of:)`).
    func admitGuest(address: String, now: ContinuousClock.Instant = .now) -> Int? {
        let key = CodeGuessBudget.key(of: address)
        return guests.withLockedValue { $0.attempt(key, now: now) }
    }

    /// Nil when `user` may create a session now; otherwise the whole seconds to wait.
    func admitSessionCreation(user: UserID, now: ContinuousClock.Instant = .now) -> Int? {
        sessionCreations.withLockedValue { $0.attempt(user, now: now) }
    }

    /// Nil when `user` at `address` may upload `bytes` of photo now (they are counted); otherwise seconds to wait.
    func chargePhoto(user: UserID, address: String, bytes: Int, now: ContinuousClock.Instant = .now) -> Int? {
        let key = CodeGuessBudget.key(of: address)
        return photoUploads.withLockedValue { $0.attempt(user: user, address: key, bytes: bytes, now: now) }
    }

    /// Whether the guest purge should run now (then it counts as run).
    func purgeDue(now: ContinuousClock.Instant = .now) -> Bool {
        purges.withLockedValue { $0.due(now: now) }
    }

    /// The live sessions `user` hosts or sits in.
    func sessions(of user: UserID) -> Set<SessionCode> {
        userSessions.withLockedValue { $0.sessions(of: user) }
    }
}
