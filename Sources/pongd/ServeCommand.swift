import ArgumentParser
import Foundation
import Logging
import NIOPosix
import ServiceLifecycle
import SessionHub

/// `pongd serve`: runs the server until SIGTERM or SIGINT, then shuts down gracefully.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the session server.")

    @Option(help: "Interface to listen on.")
    var host = "127.0.0.1"

    @Option(help: "TCP port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: "Folder for the SQLite database and photos (created if missing).")
    var dataDir = "./pongd-data"

    @Option(help: """
        Keep the store in PostgreSQL instead of the embedded SQLite file: postgres://USER[:PASSWORD]@HOST[:PORT]/DB \
        [?sslmode=disable|prefer|require|verify-full], or postgres://USER@/DB?host=/SOCKET/FOLDER for a Unix \
        socket. The password may come from PGPASSWORD. Tables are created or migrated at start. Several nodes may \
        share one database: each owns the sessions created on it, identified by --public-url (docs/SCALING.md).
        """)
    var database: String?

    @Option(help: """
        Public base URL for links in responses (joinURL), e.g. https://pong.example; default: paths only. With \
        --database: this node's own address (http://HOST:PORT), where phones and the other nodes reach it; default \
        http://--host:--port.
        """)
    var publicURL = ""

    @Option(help: """
        With --database: this node's own address (http://HOST:PORT) where phones' sockets and the other nodes reach \
        it, when --public-url is a shared name in front of all nodes (a load balancer); default: --public-url.
        """)
    var nodeURL: String?

    @Option(help: ArgumentHelp("""
        With --database: seconds a node's lease runs after each renewal (renewed every quarter of it); a killed \
        node's sessions move to the others this long after its last renewal (docs/SCALING.md).
        """, visibility: .hidden))
    var leaseSeconds: Double = 6

    @Option(help: "Minutes without any event after which a session ends (its code becomes free).")
    var idleTimeout: Double = 120

    @Option(help: "Seconds a dropped player's seat is kept for them to resume.")
    var gracePeriod: Double = 60

    @Option(help: "Joins one user may make at once (a burst), beyond which it is limited to --joins-per-minute.")
    var joinBurst: Double = 10

    @Option(help: "Sustained joins per minute per user (429 too_many_attempts beyond).")
    var joinsPerMinute: Double = 10

    @Option(name: .customLong("allowed-origin"),
            help: """
                A web origin (e.g. https://pong.example) allowed to open WebSockets and get CORS answers; \
                repeatable. Requests without an Origin header (apps) are always allowed. Default: the server's own \
                origin (Host, --public-url).
                """)
    var allowedOrigins: [String] = []

    @Option(name: .customLong("oidc-provider"),
            help: ArgumentHelp("""
                An OpenID Connect provider for POST /auth/social (social sign-in); repeatable. Comma-separated \
                key=value: id (what clients send as provider, e.g. google), issuer (the tokens' iss; repeatable), \
                audience (your app's client id; repeatable), jwks (the provider's key set: an https URL, or a file \
                re-read on refresh), name (the button's text; default from the id), authorize (the provider's \
                authorization endpoint: the web pages show a sign-in button for it, with the first audience as \
                client_id; Google's is https://accounts.google.com/o/oauth2/v2/auth, Apple's \
                https://appleid.apple.com/auth/authorize). E.g. \
                id=google,issuer=https://accounts.google.com,issuer=accounts.google.com,audience=ID,\
                jwks=https://www.googleapis.com/oauth2/v3/certs,authorize=https://accounts.google.com/o/oauth2/v2/auth
                """, valueName: "spec"))
    var oidcProviders: [String] = []

    @Option(help: "Interface of the metrics listener (GET /metrics); keep it private.")
    var metricsHost = "127.0.0.1"

    @Option(help: "TCP port of the metrics listener (0 picks a free one).")
    var metricsPort = 8081

    @Option(help: "Logins and signups one client address may make at once; beyond, --logins-per-minute.")
    var loginBurst: Double = 10

    @Option(help: "Sustained logins and signups per minute per client address (429 too_many_attempts beyond).")
    var loginsPerMinute: Double = 10

    @Option(help: "Logins to one account (email) at once, from any address, beyond which --account-logins-per-minute.")
    var accountLoginBurst: Double = 10

    @Option(help: "Sustained logins per minute to one account (429 too_many_attempts beyond).")
    var accountLoginsPerMinute: Double = 1

    @Option(help: "Threads that hash passwords (scrypt); default: half the cores, 1 to 4.")
    var passwordThreads = HubConfiguration.defaultPasswordThreads

    @Option(help: "Password hashes that may wait for a thread before 503 server_busy.")
    var passwordQueue = 16

    @Option(help: "Threads that check and decode profile photos.")
    var photoThreads = 1

    @Option(help: "Profile updates with a photo that may wait for a thread before 503 server_busy.")
    var photoQueue = 8

    @OptionGroup(title: "Quotas (docs/SECURITY.md)")
    var quotaOptions: QuotaOptions

    @OptionGroup(title: "Limits against hostile clients (docs/SECURITY.md)")
    var limits: LimitOptions

    @OptionGroup(title: "Code guessing, joins and reverse proxies (docs/SECURITY.md)")
    var access: AccessOptions

    @Option(help: "Serve the web pages from this folder instead of the built-in copy (for editing them; docs/WEB.md).")
    var webRoot: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    func run() async throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "pongd")
        do {
            try FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            logger.critical("cannot create the data folder", metadata: ["path": "\(dataDir)", "error": "\(error)"])
            throw ExitCode.failure
        }
        let server: PongServer
        do {
            guard (0.001...525_600).contains(idleTimeout), (0.001...86_400).contains(gracePeriod) else {
                throw ValidationError("--idle-timeout must be 0.001–525600 minutes and --grace-period 0.001–86400 s")
            }
            guard allowedOrigins.allSatisfy({ OriginPolicy.origin(of: $0) != nil }) else {
                throw ValidationError("--allowed-origin takes http(s)://host[:port], e.g. https://pong.example")
            }
            let providers = try Self.providers(oidcProviders)
            guard (1...1_000_000).contains(joinBurst), (0.001...6_000_000).contains(joinsPerMinute) else {
                throw ValidationError("--join-burst must be 1–1000000 and --joins-per-minute 0.001–6000000")
            }
            guard [loginBurst, accountLoginBurst].allSatisfy({ (1...1_000_000).contains($0) }),
                  [loginsPerMinute, accountLoginsPerMinute].allSatisfy({ (0.001...6_000_000).contains($0) }),
                  (1...64).contains(passwordThreads), (0...10_000).contains(passwordQueue),
                  (1...64).contains(photoThreads), (0...10_000).contains(photoQueue)
            else {
                throw ValidationError("--login-burst/--account-login-burst must be 1–1000000, the per-minute rates "
                    + "0.001–6000000, --password-threads/--photo-threads 1–64, --password-queue/--photo-queue "
                    + "0–10000")
            }
            let session = SessionState.Configuration(gracePeriod: .milliseconds(Int64(gracePeriod * 1000)),
                                                     idleTimeout: .milliseconds(Int64(idleTimeout * 60_000)))
            var configuration = HubConfiguration(dataDirectory: dataDir, publicBaseURL: publicURL, session: session,
                                                 joinBurst: joinBurst, joinsPerSecond: joinsPerMinute / 60)
            configuration.database = try database.map { text throws(ValidationError) in
                do {
                    return try DatabaseURL(text, environment: ProcessInfo.processInfo.environment)
                } catch {
                    throw ValidationError("--database: \(error)")
                }
            }
            if configuration.database != nil {
                guard (0.2...600).contains(leaseSeconds) else { throw ValidationError("--lease-seconds must be 0.2–600") }
                guard publicURL.isEmpty || OriginPolicy.origin(of: publicURL) != nil,
                      nodeURL.map({ OriginPolicy.origin(of: $0) != nil }) ?? true
                else {
                    throw ValidationError("--public-url and --node-url take http(s)://host[:port], e.g. http://10.0.0.5:8080")
                }
                configuration.cluster.nodeURL = nodeURL.flatMap(OriginPolicy.origin(of:))
                    ?? OriginPolicy.origin(of: publicURL) ?? "http://\(host):\(port)"
                configuration.cluster.leaseDuration = .milliseconds(Int64(leaseSeconds * 1000))
                configuration.cluster.renewInterval = .milliseconds(Int64(leaseSeconds * 250))
            }
            configuration.allowedOrigins = allowedOrigins
            configuration.oidcProviders = providers
            configuration.loginBurst = loginBurst
            configuration.loginsPerSecond = loginsPerMinute / 60
            configuration.accountLoginBurst = accountLoginBurst
            configuration.accountLoginsPerSecond = accountLoginsPerMinute / 60
            configuration.passwordThreads = passwordThreads
            configuration.passwordQueue = passwordQueue
            configuration.photoThreads = photoThreads
            configuration.photoQueue = photoQueue
            configuration.quotas = try quotaOptions.quotas()
            configuration.webRoot = webRoot
            configuration.session.helloTimeout = .milliseconds(Int64(limits.helloTimeout * 1000))
            configuration.maxSocketsPerUser = limits.maxSocketsPerUser
            try access.apply(to: &configuration)
            var transport = try limits.transportLimits()
            try access.apply(to: &transport)
            server = try PongServer(configuration: configuration, host: host, port: port,
                                    transport: transport, metricsHost: metricsHost,
                                    metricsPort: metricsPort, logger: logger)
        } catch let error as ValidationError {
            throw error
        } catch {
            let store = database.flatMap { try? DatabaseURL($0).description } ?? "sqlite in \(dataDir)"
            logger.critical("cannot open the store", metadata: ["store": "\(store)", "error": "\(error)"])
            throw ExitCode.failure
        }
        var lifecycle = ServiceGroupConfiguration(
            services: [.init(service: server)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        // The server drains within --drain-timeout itself (`ConnectionDrain`); this only backs it up.
        lifecycle.maximumGracefulShutdownDuration = .milliseconds(Int64(limits.drainTimeout * 1000))
        lifecycle.maximumCancellationDuration = .seconds(2)
        let group = ServiceGroup(configuration: lifecycle)
        try await group.run()
    }
}

extension ServeCommand {
    /// The `--oidc-provider` values parsed; a malformed one, a repeated id or a key set file that cannot be read
    /// stops the start.
    static func providers(_ options: [String]) throws -> [OIDCProvider] {
        var providers: [OIDCProvider] = []
        for option in options {
            let provider: OIDCProvider
            do {
                provider = try OIDCProvider(option: option)
            } catch {
                throw ValidationError("--oidc-provider \(option): \(error)")
            }
            guard !providers.contains(where: { $0.id == provider.id }) else {
                throw ValidationError("--oidc-provider: id \(provider.id) is given twice")
            }
            if case .file(let path) = provider.keys, !FileManager.default.isReadableFile(atPath: path) {
                throw ValidationError("--oidc-provider \(provider.id): cannot read the key set file \(path)")
            }
            providers.append(provider)
        }
        return providers
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
