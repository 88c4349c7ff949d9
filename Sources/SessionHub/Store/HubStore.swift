#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PongWire

/// What `SessionHub` needs of a store: users, social identities, profiles, photos, sessions, seats, events, the
/// guest purge and a little diagnostics. Two backends keep it: `SessionStore` (one embedded SQLite file, the
/// default) and `PostgresStore` (`pongd serve --database postgres://…`). Both pass the same tests (`StoreTests*`).
///
/// The contract, for every backend:
/// - Calls are synchronous and may block on disk or network: make them from a session's queue or a worker, never
///   from an event loop.
/// - Every write runs in one transaction; when a call returns, its change is committed (durable) and visible to
///   every later call; when it throws, nothing of it is stored. A caller's writes made one after the other commit in
///   that order (events appended one batch after another get increasing ids); any number of threads may call at once,
///   and their writes may then commit in any order (SQLite runs them one at a time, PostgreSQL side by side on a few
///   connections).
/// - Failures are `StoreError`s of the same kinds (`duplicateEmail`, `duplicateKey`, `constraint`, `notFound`,
///   `invalidState`, `corruptData`, `io`); a closed store answers `.io`. Timestamps are kept to the millisecond.
package protocol HubStore: AnyObject, Sendable {
    // MARK: Users

    /// Stores a new user. Throws `.duplicateEmail` when another user has the email in any (ASCII) letter case,
    /// `.duplicateKey` when the id is taken, `.constraint` for a password hash without an email.
    func createUser(_ user: StoredUser) throws(StoreError)
    /// The user with this email, compared case-insensitively; nil if none.
    func user(byEmail email: String) throws(StoreError) -> StoredUser?
    /// The user with this id; nil if none.
    func user(id: UserID) throws(StoreError) -> StoredUser?

    // MARK: Social identities

    /// The account of a verified social identity, in one transaction: the account the identity (`provider` +
    /// `subject`) signed in to before; else, when `verifiedEmail` is a signed-up (non-guest) account's, that
    /// account, linked to the identity; else `newUser`, stored with `verifiedEmail` when no account has it, and
    /// linked.
    func socialAccount(provider: String, subject: String, verifiedEmail: String?, newUser: StoredUser)
        throws(StoreError) -> (user: UserID, outcome: SocialAccountOutcome)
    /// The providers and subjects that sign in to `user`, sorted.
    func identities(of user: UserID) throws(StoreError) -> [(provider: String, subject: String)]

    // MARK: Profiles and photos

    /// Creates or replaces the user's profile. A `photoId` must name a photo of the same user (else
    /// `.constraint`); the photo it replaces, if any, is deleted. Throws `.constraint` for an unknown user.
    func upsertProfile(_ profile: StoredProfile) throws(StoreError)
    /// The user's profile; nil if the user never set one.
    func profile(userId: UserID) throws(StoreError) -> StoredProfile?
    /// Stores a photo of a user. Throws `.duplicateKey` for a taken id, `.constraint` for an unknown user.
    func savePhoto(_ photo: StoredPhoto) throws(StoreError)
    /// The photo with this id; nil if none.
    func photo(id: PhotoID) throws(StoreError) -> StoredPhoto?
    /// Stores a photo as `savePhoto` does unless the user's stored photo bytes (the profile's current photo not
    /// counted) would then pass `storedBytesLimit`. Returns whether it was stored.
    func savePhoto(_ photo: StoredPhoto, storedBytesLimit: Int) throws(StoreError) -> Bool

    // MARK: Sessions

    /// Stores a new session. Throws `.duplicateKey` when a stored session (live or ended) has the code,
    /// `.constraint` for an unknown host.
    func createSession(_ session: StoredSession) throws(StoreError)
    /// The session with this code, live or ended; nil if none.
    func session(code: SessionCode) throws(StoreError) -> StoredSession?
    /// Codes of the sessions not ended, sorted: what a restart brings back.
    func liveSessionCodes() throws(StoreError) -> [SessionCode]
    /// Sets the session's state and counts it as activity at `at`; `ended` also sets `endedAt`. Ending an ended
    /// session changes nothing; any other change to an ended session throws `.invalidState`; `.notFound` if none.
    func updateSessionState(code: SessionCode, to state: SessionPhase, at: Date) throws(StoreError)
    /// Records activity at `at` (last activity only moves forward); `.notFound` if none.
    func touchSession(code: SessionCode, at: Date) throws(StoreError)
    /// Ends every live session whose last activity is before `cutoff`, with `endedAt = now`; their codes, sorted.
    func expireIdleSessions(olderThan cutoff: Date, now: Date) throws(StoreError) -> [SessionCode]

    // MARK: Seats

    /// Stores a new seat. Throws `.duplicateKey` for a taken player id or resume token, `.constraint` for an
    /// unknown session or user or a journey that is not JSON, `.invalidState` when the session has ended.
    func createMembership(_ membership: StoredMembership) throws(StoreError)
    /// Every seat of the session, held or left, in join order.
    func memberships(sessionCode: SessionCode) throws(StoreError) -> [StoredMembership]
    /// The seat with this resume token; nil if none.
    func membership(resumeToken: String) throws(StoreError) -> StoredMembership?
    /// The seat with this player id; nil if none.
    func membership(playerId: PlayerID) throws(StoreError) -> StoredMembership?
    /// Replaces the seat's journey JSON (`.notFound` for an unknown seat, `.constraint` if it is not JSON).
    func updateJourney(playerId: PlayerID, json: String) throws(StoreError)
    /// Marks the seat left at `at` (the first time counts). `.notFound` for an unknown seat.
    func markLeft(playerId: PlayerID, at: Date) throws(StoreError)

    // MARK: Events

    /// Appends an event (its `id` is ignored) and returns it with the id it got. Throws `.constraint` for an
    /// unknown session or seat, or a payload that is not JSON.
    @discardableResult
    func appendEvent(_ event: StoredEvent) throws(StoreError) -> StoredEvent
    /// Appends events in one transaction, in order; on error none of them is stored.
    func appendEvents(_ events: [StoredEvent]) throws(StoreError)
    /// The session's newest `limit` events (all of them when `limit` is nil), oldest first.
    func events(sessionCode: SessionCode, limit: Int?) throws(StoreError) -> [StoredEvent]

    // MARK: Purge

    /// After a session ended, deletes its guests that have no seat in, and host no, live session, with all of
    /// theirs; returns them, sorted. `.notFound` for an unknown session, `.invalidState` for one not ended.
    @discardableResult
    func purgeGuestData(sessionCode: SessionCode) throws(StoreError) -> [UserID]
    /// Deletes up to `limit` guests created before `cutoff` in no live session; returns them, oldest first.
    @discardableResult
    func purgeUnjoinedGuests(createdBefore cutoff: Date, limit: Int) throws(StoreError) -> [UserID]

    // MARK: Diagnostics and life cycle

    /// Identifiers of the applied schema migrations, in order (the same on every backend).
    func appliedMigrations() throws(StoreError) -> [String]
    /// Which backend this is, for logs (`sqlite /path/pongd.sqlite`, `postgres user@host:port/db`).
    var backendDescription: String { get }
    /// Closes the store; later calls fail with `.io`.
    func close() throws(StoreError)
    /// Runs one raw SQL statement in a write transaction: for tests that need rows the typed API refuses to write.
    func execute(rawSQL: String) throws(StoreError)
}

extension HubStore {
    /// Every event of the session, oldest first.
    package func events(sessionCode: SessionCode) throws(StoreError) -> [StoredEvent] {
        try events(sessionCode: sessionCode, limit: nil)
    }

    /// `purgeUnjoinedGuests(createdBefore:limit:)` with batches of 500.
    @discardableResult
    package func purgeUnjoinedGuests(createdBefore cutoff: Date) throws(StoreError) -> [UserID] {
        try purgeUnjoinedGuests(createdBefore: cutoff, limit: 500)
    }
}

extension SessionStore: HubStore {
    /// `sqlite <path>`.
    package var backendDescription: String { "sqlite \(path)" }
}
