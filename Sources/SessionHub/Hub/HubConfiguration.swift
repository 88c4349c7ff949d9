import Foundation
import NIOCore
import PongWire

/// Settings of a running hub; `pongd serve` fills them from flags and the environment.
package struct HubConfiguration: Sendable {
    /// Folder of the SQLite database (when `database` is nil) and the token key.
    package var dataDirectory: String
    /// The PostgreSQL server holding the store (`pongd serve --database`); nil: the embedded SQLite file in
    /// `dataDirectory`.
    package var database: DatabaseURL?
    /// Sessions owned by nodes on a shared PostgreSQL store (used only with `database`).
    package var cluster = ClusterConfiguration()
    /// Prefix for absolute links in responses (`joinURL`), e.g. "https://pong.example"; empty gives paths.
    package var publicBaseURL: String
    /// How long sign-in and guest tokens stay valid.
    package var tokenLifetime: Duration
    /// Seats, grace period, idle expiry and readiness rules of every session.
    package var session: SessionState.Configuration
    /// Join attempts allowed per user (token): a burst and a sustained rate (docs/SECURITY.md, "Joins").
    package var joinBurst: Double
    package var joinsPerSecond: Double
    /// Join attempts allowed per session (all users together): a burst and a sustained rate.
    package var sessionJoinBurst: Double = 32
    package var sessionJoinsPerSecond: Double = 32.0 / 60
    /// Failed session-code lookups allowed per client address (`CodeGuessBudget`): a burst and a sustained rate.
    package var codeGuessBurst: Double = 20
    package var codeGuessesPerSecond: Double = 20.0 / 60
    /// Password attempts (logins and signups) per client address: a burst and a sustained rate.
    package var loginBurst: Double = 10
    package var loginsPerSecond: Double = 10.0 / 60
    /// Login attempts per account (the email as typed, known or not): a burst and a sustained rate.
    package var accountLoginBurst: Double = 10
    package var accountLoginsPerSecond: Double = 1.0 / 60
    /// Threads that run scrypt (never the shared worker), and jobs that may wait beyond them before `server_busy`.
    package var passwordThreads: Int = HubConfiguration.defaultPasswordThreads
    package var passwordQueue: Int = 16
    /// Threads that check and decode profile photos, and updates with a photo that may wait before `server_busy`.
    package var photoThreads: Int = 1
    package var photoQueue: Int = 8
    /// Serial queues sessions are sharded over (bounded threads however many sessions run).
    package var sessionQueues: Int
    /// scrypt cost; tests lower it.
    package var passwordHashing: PasswordHasher.Parameters
    /// Stream start and stall timeouts, and the `stream` report interval.
    package var streamMonitor = StreamMonitor.Configuration()
    /// Web origins allowed to upgrade to WebSockets and to get CORS answers; empty: the server's own only
    /// (`OriginPolicy`).
    package var allowedOrigins: [String] = []
    /// Least time between two `error` messages answering binary frames on one socket (docs/PROTOCOL.md, "Live
    /// streams"); tests shorten it.
    package var mediaErrorInterval: Duration = .seconds(1)
    /// WebSockets (player and dashboard) one user may hold at once; more are closed with 4008 (docs/SECURITY.md).
    package var maxSocketsPerUser = 8
    /// Guests per address, live sessions per user, photo bytes per user, the purge of unjoined guests.
    package var quotas = Quotas()
    /// OpenID Connect providers whose ID tokens `POST /auth/social` accepts (`--oidc-provider`); none by default.
    package var oidcProviders: [OIDCProvider] = []
    /// The wall clock of session times kept in the store (created, activity, phase changes, the idle check at
    /// start-up) and of ID tokens' times (`IDTokenVerifier`); tests inject one to step past the idle timeout or
    /// an expiry without waiting.
    package var wallClock: @Sendable () -> Date = { Date() }
    /// Draws a new session's code (`POST /sessions`; nil: none could be drawn), uniformly from the system's random
    /// generator; tests inject a script to make a code collide with one another node stored.
    package var drawCode: @Sendable () -> SessionCode? = {
        var random = SystemRandomNumberGenerator()
        return SessionCode.generate(using: &random, avoiding: [])
    }
    /// A folder to serve the web client from (`pongd serve --web-root`, for editing the pages without a rebuild);
    /// nil: the copy built into the binary's resources (docs/WEB.md).
    package var webRoot: String?

    package init(dataDirectory: String, publicBaseURL: String = "", tokenLifetime: Duration = .seconds(30 * 24 * 3600),
                 session: SessionState.Configuration = SessionState.Configuration(), joinBurst: Double = 10,
                 joinsPerSecond: Double = 10.0 / 60, sessionQueues: Int = 16,
                 passwordHashing: PasswordHasher.Parameters = .standard) {
        self.dataDirectory = dataDirectory
        self.publicBaseURL = publicBaseURL
        self.tokenLifetime = tokenLifetime
        self.session = session
        self.joinBurst = joinBurst
        self.joinsPerSecond = joinsPerSecond
        self.sessionQueues = max(1, sessionQueues)
        self.passwordHashing = passwordHashing
    }

    /// Half the cores (at least 1, at most 4): scrypt never takes every core from the event loops and the worker.
    package static var defaultPasswordThreads: Int {
        min(4, max(1, System.coreCount / 2))
    }
}
