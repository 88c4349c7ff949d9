import Dispatch
import Foundation
import Logging
import NIOConcurrencyHelpers
import PongWire
import Synchronization

/// The hub behind the phones: accounts, profiles, live sessions and their sockets, over the store.
///
/// HTTP requests arrive through `HubRouter`, sockets through the `WebSocketRoute` conformance. Blocking work
/// (password hashing, the database) runs on `worker`; each session's events run on its own serial queue
/// (`LiveSession`), taken from a fixed pool sharded by session code so threads stay bounded.
package final class SessionHub: Sendable {
    let configuration: HubConfiguration
    let store: any HubStore
    let signer: TokenSigner
    let hasher: PasswordHasher
    let logger: Logger
    /// Blocking work off the event loops.
    let worker = DispatchQueue(label: "pongd.worker", attributes: .concurrent)
    /// Where bounce events are batched into the store (`EventWriter`). Seat, journey and phase writes run on their
    /// session's own queue, so a session's writes are in order and sessions on other queues write side by side.
    let eventQueue = DispatchQueue(label: "pongd.event-writer")
    private let sessionQueues: [DispatchQueue]
    private let sessions = NIOLockedValueBox<[SessionCode: LiveSession]>([:])
    private let socketSessions = NIOLockedValueBox<[UInt64: LiveSession]>([:])
    /// Join attempts per user and per session.
    let joinLimiter: NIOLockedValueBox<KeyedRateLimiter<UserID>>
    let sessionJoinLimiter: NIOLockedValueBox<KeyedRateLimiter<SessionCode>>
    /// Failed session-code lookups per client address.
    let codeGuesses: NIOLockedValueBox<CodeGuessBudget>
    /// Open WebSockets per user (`HubConfiguration.maxSocketsPerUser`).
    let userSockets: NIOLockedValueBox<UserSocketCounter>
    /// Password attempts per client address and per account.
    let loginLimiter: NIOLockedValueBox<LoginLimiter>
    /// Where scrypt runs (bounded; never `worker`).
    let passwords: WorkPool
    /// Where profile updates that carry a photo are checked and decoded (bounded; never `worker`).
    let photos: WorkPool
    /// A hash of a random password: an unknown email's login is verified against it, so it costs one scrypt too.
    let dummyPasswordHash: DummyPasswordHash
    /// Web origins allowed to upgrade and to get CORS answers.
    let origins: OriginPolicy
    /// The pages' `Content-Security-Policy` (`HubRouter.pageContentSecurityPolicy`), made once.
    let pageContentSecurityPolicy: String
    /// The web client's pages and assets (`GET /`, `/join/{code}`, `/host`, `/assets/…`).
    let web: WebAssets
    /// Counters and gauges behind `GET /metrics`.
    let metrics = HubMetrics()
    /// Batches bounce events into the store.
    let events: EventWriter
    /// Guests per address, live sessions per user (and the user → sessions index), photo bytes per user.
    let quotas: QuotaLedger
    /// The OpenID Connect providers of `POST /auth/social`.
    let social: SocialSignIn
    /// This node among others on PostgreSQL (leases, owners, handover); nil on one node (SQLite).
    let cluster: ClusterNode?
    /// Set while a drain hands the sessions over: messages from phones are dropped. Read for every message and
    /// media frame: an atomic, not a lock.
    let handingOver = Atomic(false)
    /// Sockets whose session is being located in the store (several nodes): the text they sent meanwhile and their
    /// hello deadline.
    let locatingSockets = NIOLockedValueBox<[UInt64: LocatingSocket]>([:])
    /// Live sessions holding changes the store has not taken yet (`HeldWrites`): retried at each periodic check.
    let sessionsHoldingWrites = NIOLockedValueBox<Set<SessionCode>>([])
    /// Ended sessions' changes the store has not taken yet (their end among them), written by `retryHeldWrites`.
    let endedSessionWrites = NIOLockedValueBox<[SessionCode: HeldWrites]>([:])
    /// Each live session's QR code SVG once drawn (`GET /sessions/{code}/qr.svg`), dropped when it is forgotten.
    let qrCodes = NIOLockedValueBox<[SessionCode: [UInt8]]>([:])

    /// Opens the store (PostgreSQL at `configuration.database`, else SQLite in the data directory), loads (or creates) the token key, and restores the live sessions.
    package init(configuration: HubConfiguration, logger: Logger) throws {
        self.configuration = configuration
        let localKey = try TokenKey.load(dataDirectory: configuration.dataDirectory)
        if let database = configuration.database {
            let nodeID = try NodeIdentity.load(dataDirectory: configuration.dataDirectory)
            let lease = configuration.cluster.leaseDuration
            let store = try PostgresStore(url: database, logger: logger, node: nodeID,
                                          controlTimeout: .nanoseconds(Int64(lease.components.seconds) * 1_000_000_000
                                              + lease.components.attoseconds / 1_000_000_000))
            let cluster = ClusterNode(id: nodeID, url: configuration.cluster.nodeURL ?? "http://127.0.0.1:8080",
                                      ownership: store, configuration: configuration.cluster)
            try cluster.register()
            self.store = store
            self.cluster = cluster
            // Every node signs with the key the first one stored (a node's own key file seeds it).
            self.signer = TokenSigner(secret: try store.sharedSecret(TokenKey.sharedName, proposed: localKey))
        } else {
            self.store = try SessionStore(dataDirectory: configuration.dataDirectory)
            self.cluster = nil
            self.signer = TokenSigner(secret: localKey)
        }
        logger.info("store opened", metadata: ["store": "\(store.backendDescription)",
                                                "node.id": "\(cluster?.id ?? "single")",
                                                "node.url": "\(cluster?.url ?? "")"])
        self.hasher = PasswordHasher(parameters: configuration.passwordHashing)
        self.web = try configuration.webRoot.map { try WebAssets(folder: URL(fileURLWithPath: $0)) } ?? .builtIn()
        self.logger = logger
        self.loginLimiter = NIOLockedValueBox(LoginLimiter(
            addressBurst: configuration.loginBurst, addressPerSecond: configuration.loginsPerSecond,
            accountBurst: configuration.accountLoginBurst, accountPerSecond: configuration.accountLoginsPerSecond))
        self.passwords = WorkPool(label: "pongd.passwords", threads: configuration.passwordThreads,
                                  queueLimit: configuration.passwordQueue)
        self.photos = WorkPool(label: "pongd.photos", threads: configuration.photoThreads,
                               queueLimit: configuration.photoQueue)
        self.dummyPasswordHash = DummyPasswordHash(parameters: configuration.passwordHashing)
        self.origins = OriginPolicy(allowedOrigins: configuration.allowedOrigins,
                                    publicBaseURL: configuration.publicBaseURL)
        self.pageContentSecurityPolicy = HubRouter.pageContentSecurityPolicy(
            socketOrigins: origins.allowed.union(self.cluster.map { [$0.url] } ?? []))
        let cluster = self.cluster
        self.events = EventWriter(store: store, queue: eventQueue, logger: logger,
                                  storeReachable: { cluster?.storeReachable ?? true })
        self.userSockets = NIOLockedValueBox(UserSocketCounter(maxPerUser: configuration.maxSocketsPerUser))
        self.quotas = QuotaLedger(limits: configuration.quotas)
        self.sessionQueues = (0..<configuration.sessionQueues).map { DispatchQueue(label: "pongd.session.\($0)") }
        self.joinLimiter = NIOLockedValueBox(KeyedRateLimiter(capacity: configuration.joinBurst,
                                                              perSecond: configuration.joinsPerSecond))
        self.sessionJoinLimiter = NIOLockedValueBox(KeyedRateLimiter(
            capacity: configuration.sessionJoinBurst, perSecond: configuration.sessionJoinsPerSecond))
        self.codeGuesses = NIOLockedValueBox(CodeGuessBudget(burst: configuration.codeGuessBurst,
                                                             perSecond: configuration.codeGuessesPerSecond))
        self.social = SocialSignIn(providers: configuration.oidcProviders, now: configuration.wallClock, logger: logger)
        try restoreLiveSessions()
        purgeUnjoinedGuestsIfDue()
        social.preload()
        startCluster()
    }

    /// The HTTP routes of the contract.
    package var router: HubRouter { HubRouter(hub: self) }

    /// `GET /metrics` (and `/healthz`), for the metrics listener only (`pongd serve --metrics-port`).
    package var metricsRouter: MetricsRouter { MetricsRouter(metrics: metrics) }

    /// The live session with this code, if any.
    func session(_ code: SessionCode) -> LiveSession? {
        sessions.withLockedValue { $0[code] }
    }

    /// All live sessions: O(live sessions), so never on a request's path (`quotas.sessions(of:)` finds a user's).
    var liveSessions: [LiveSession] {
        sessions.withLockedValue { Array($0.values) }
    }

    /// Codes of all live sessions: O(live sessions), so never on a request's path.
    var liveCodes: Set<SessionCode> {
        sessions.withLockedValue { Set($0.keys) }
    }

    /// Starts owning a new session; when the code is already in memory (restored or created meanwhile), that
    /// session, untouched (`isNew` false).
    @discardableResult
    func adopt(_ state: SessionState, initialActions: [SessionState.Action]) -> (session: LiveSession, isNew: Bool) {
        var hasher = Hasher()
        hasher.combine(state.code)
        let queue = sessionQueues[Int(UInt(bitPattern: hasher.finalize()) % UInt(sessionQueues.count))]
        let live = LiveSession(state: state, queue: queue, logger: logger, metrics: metrics,
                               monitorConfiguration: configuration.streamMonitor,
                               mediaErrorInterval: configuration.mediaErrorInterval,
                               recorder: recorder(for: state.code),
                               onBounce: { [weak self] bounce in self?.storeBounce(bounce, code: state.code) },
                               onDiscard: { [weak self] code, held in self?.discard(code, held: held) })
        let (existing, count) = sessions.withLockedValue { sessions in
            if let existing = sessions[state.code] { return (Optional(existing), sessions.count) }
            sessions[state.code] = live
            return (nil, sessions.count)
        }
        if let existing { return (existing, false) }
        quotas.userSessions.withLockedValue { index in
            index.add(host: state.host.userId, of: state.code)
            for seat in state.seats.values { index.add(member: seat.userId, of: state.code) }
        }
        metrics.sessions(count)
        live.submit { _, _ in initialActions }
        return (live, true)
    }

    /// A session ended: forget it and drop guest data nobody needs any more — once its end is in the store
    /// (`held`: what the store has not taken yet, its end among them, written by `retryHeldWrites`).
    private func discard(_ code: SessionCode, held: HeldWrites) {
        forget(code)
        logger.info("session ended", metadata: ["session.code": "\(code)"])
        guard held.isEmpty else {
            endedSessionWrites.withLockedValue { $0[code] = held }
            return
        }
        purgeGuests(of: code)
    }

    /// Drops an ended session's guests (their users, profiles and photos), off the caller's queue.
    func purgeGuests(of code: SessionCode) {
        worker.async { [store, logger] in
            do {
                _ = try store.purgeGuestData(sessionCode: code)
            } catch {
                logger.error("cannot purge a session's guests", metadata: ["session.code": "\(code)", "error": "\(error)"])
            }
        }
    }

    /// Stops holding a session in memory (it ended, or another node owns it now).
    func forget(_ code: SessionCode) {
        quotas.userSessions.withLockedValue { $0.remove(code) }
        qrCodes.withLockedValue { _ = $0.removeValue(forKey: code) }
        let count = sessions.withLockedValue { sessions in
            sessions.removeValue(forKey: code)
            return sessions.count
        }
        metrics.sessions(count)
    }

    /// Waits until every seat and journey write handed off so far is in the store (graceful shutdown): changes held
    /// for a store that could not take them are tried once more, the session queues finish the events in flight
    /// (each writes before it returns), then the bounce events queued are written.
    package func flushWrites() {
        retryHeldWrites()
        for queue in sessionQueues { queue.sync {} }
        eventQueue.sync {}
    }

    /// Queues a bounce for the store (batched with its neighbours).
    private func storeBounce(_ bounce: Bounce, code: SessionCode) {
        guard let payload = try? MessageCodec.encodeJSON(bounce) else { return }
        events.append(StoredEvent(sessionCode: code, playerId: bounce.playerId, kind: .bounce, payload: payload,
                                  at: Date()))
    }

    /// Remembers which session a socket belongs to (for its messages and its close).
    func bind(socket id: UInt64, to session: LiveSession) {
        socketSessions.withLockedValue { $0[id] = session }
    }

    /// The session of a socket, removing the binding when `unbinding`.
    func sessionOf(socket id: UInt64, unbinding: Bool = false) -> LiveSession? {
        socketSessions.withLockedValue { unbinding ? $0.removeValue(forKey: id) : $0[id] }
    }

    /// Verifies a bearer token.
    func authenticate(_ token: String?, allowing kinds: Set<AccessToken.Kind> = [.user, .guest, .host])
        throws(APIError) -> AccessToken
    {
        guard let token, !token.isEmpty else { throw .unauthorized }
        do {
            return try signer.verify(token, now: Date(), allowing: kinds)
        } catch {
            throw error.apiError
        }
    }
}
