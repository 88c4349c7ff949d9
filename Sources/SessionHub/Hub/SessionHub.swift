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
    /// Each live session's QR code SVG once drawn (`GET /sessions/{code}/qr.svg`), dropped when it is forgotten.
    let qrCodes = NIOLockedValueBox<[SessionCode: [UInt8]]>([:])

    /// Opens the store (PostgreSQL at `configuration.database`, else SQLite in the data directory), loads (or creates) the token key, and restores the live sessions.
    package init(configuration: HubConfiguration, logger: Logger) throws {
        self.configuration = configuration
        let localKey = try TokenKey.load(dataDirectory: configuration.dataDirectory)
        if let database = configuration.database {
            let nodeID = try NodeIdentity.load(dataDirectory: configuration.dataDirectory)
            let store = try PostgresStore(url: database, logger: logger, node: nodeID)
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
                               onDiscard: { [weak self] code in self?.discard(code) })
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

    /// A session ended (its end is already recorded): forget it and drop guest data nobody needs any more.
    private func discard(_ code: SessionCode) {
        forget(code)
        worker.async { [store, logger] in
            do {
                _ = try store.purgeGuestData(sessionCode: code)
            } catch {
                logger.error("cannot purge a session's guests", metadata: ["session.code": "\(code)", "error": "\(error)"])
            }
        }
        logger.info("session ended", metadata: ["session.code": "\(code)"])
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

    /// Waits until every seat and journey write handed off so far is in the store (graceful shutdown): the session
    /// queues finish the events in flight (each writes before it returns), then the bounce events queued are written.
    package func flushWrites() {
        for queue in sessionQueues { queue.sync {} }
        eventQueue.sync {}
    }

    /// Stores a new seat so it survives a restart; call on the session's queue, before the join is answered (it
    /// returns once the seat is written).
    /// `journey`: the seat's first journey, stored with it (one transaction, where a seat and then its journey would
    /// be two commits; on PostgreSQL each commit waits for the WAL flush).
    func recordSeat(_ outcome: SessionState.JoinOutcome, code: SessionCode, user: UserID,
                    journey: PlayerJourney.Snapshot? = nil) {
        quotas.userSessions.withLockedValue { $0.add(member: user, of: code) }
        let json = journey.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
        let membership = StoredMembership(playerId: outcome.playerId, sessionCode: code, userId: user,
                                          resumeToken: outcome.resumeToken, journey: json ?? "{}", joinedAt: Date())
        write("a seat", ["session.code": "\(code)"]) { (store) throws(StoreError) in
            try store.createMembership(membership)
        }
    }

    /// The session's `SessionRecorder`: every change written on the session's queue, in order, before it returns.
    private func recorder(for code: SessionCode) -> SessionRecorder {
        SessionRecorder(
            journey: { [weak self] player, snapshot in
                guard let data = try? JSONEncoder().encode(snapshot) else { return }
                let json = String(decoding: data, as: UTF8.self)
                self?.write("a journey", ["player.id": "\(player)"]) { (store) throws(StoreError) in
                    try store.updateJourney(playerId: player, json: json)
                }
            },
            seatFreed: { [weak self] player, at in
                self?.write("a freed seat", ["player.id": "\(player)"]) { (store) throws(StoreError) in
                    try store.markLeft(playerId: player, at: at)
                }
            },
            phase: { [weak self] phase, at in
                let metadata: Logger.Metadata = ["session.code": "\(code)", "phase": "\(phase.rawValue)"]
                self?.write("a session's phase", metadata) { (store) throws(StoreError) in
                    try store.updateSessionState(code: code, to: phase, at: at)
                }
            },
            activity: { [weak self] at in
                self?.write("a session's activity", ["session.code": "\(code)"]) { (store) throws(StoreError) in
                    try store.touchSession(code: code, at: at)
                }
            },
            now: configuration.wallClock,
            activityInterval: SessionRecorder.activityInterval(idleTimeout: configuration.session.idleTimeout))
    }

    /// Runs one write now, on the caller's queue (a session's: its writes stay in order); errors are logged.
    /// While the store is known to be out of reach (several nodes), nothing is tried: the session's journeys and
    /// phase are written again when it is back (`LiveSession.recordAgain`), and no session waits on a connect timeout.
    private func write(_ what: String, _ metadata: Logger.Metadata,
                       _ body: @Sendable (any HubStore) throws(StoreError) -> Void) {
        if let cluster, !cluster.storeReachable { return }
        do throws(StoreError) {
            try body(store)
        } catch {
            var metadata = metadata
            metadata["error"] = "\(error)"
            logger.error("cannot store \(what)", metadata: metadata)
        }
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
