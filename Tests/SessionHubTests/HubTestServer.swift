import Foundation
import Logging
import ServiceLifecycle
import Testing
@testable import SessionHub

/// A real pongd server (hub + HTTP/WebSocket listener) on an ephemeral port over a temporary data folder.
final class HubTestServer {
    let port: Int
    /// The metrics listener's port (`GET /metrics`).
    let metricsPort: Int
    let dataDirectory: String
    let hub: SessionHub
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Starts a server; `dataDirectory` reuses a folder (for restart tests), nil makes a fresh one.
    /// The stream monitor's timeouts default to a minute so that slow test machines never fail a stream by accident;
    /// media errors are throttled as in production unless `mediaErrorInterval` says otherwise.
    static func start(dataDirectory: String? = nil, session: SessionState.Configuration = .init(),
                      joinBurst: Double = 100, streamMonitor: StreamMonitor.Configuration = .patient,
                      mediaErrorInterval: Duration = .seconds(1), transport: TransportLimits = TransportLimits(),
                      maxSocketsPerUser: Int = 8, allowedOrigins: [String] = [], publicBaseURL: String = "",
                      configure: (inout HubConfiguration) -> Void = { _ in })
        async throws -> HubTestServer
    {
        let folder = dataDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("pongd-e2e-\(UUID().uuidString)").path
        let logger = Logger(label: "test")
        var configuration = HubConfiguration(
            dataDirectory: folder, publicBaseURL: publicBaseURL, session: session, joinBurst: joinBurst, joinsPerSecond: joinBurst / 60,
            passwordHashing: .init(logRounds: 10, blockSize: 8, parallelism: 1))
        configuration.streamMonitor = streamMonitor
        configuration.mediaErrorInterval = mediaErrorInterval
        configuration.maxSocketsPerUser = maxSocketsPerUser
        configuration.allowedOrigins = allowedOrigins
        configuration.loginBurst = 100
        configuration.loginsPerSecond = 100
        configuration.quotas.guestBurst = 10_000
        configure(&configuration)
        let hub = try SessionHub(configuration: configuration, logger: logger)
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, limits: transport), logger: logger,
                                router: hub.router, webSockets: hub)
        let metricsServer = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), logger: logger,
                                       router: hub.metricsRouter, webSockets: nil)
        let group = ServiceGroup(services: [server, metricsServer], logger: logger)
        let task = Task { try await group.run() }
        let port = try await server.boundPort
        let metricsPort = try await metricsServer.boundPort
        return HubTestServer(port: port, metricsPort: metricsPort, dataDirectory: folder, hub: hub, group: group,
                             task: task)
    }

    private init(port: Int, metricsPort: Int, dataDirectory: String, hub: SessionHub, group: ServiceGroup,
                 task: Task<Void, any Error>) {
        self.port = port
        self.metricsPort = metricsPort
        self.dataDirectory = dataDirectory
        self.hub = hub
        self.group = group
        self.task = task
    }

    /// Stops the server gracefully and waits for it.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
        hub.flushWrites()
    }

    /// A guest who created a rally session: their token and user id, the session's code and its dashboard token.
    struct HostedSession {
        let token: String
        let userId: String
        let code: String
        let hostToken: String
    }

    /// Signs in a new guest (`POST /auth/guest`): their token and user id.
    func guest() async throws -> (token: String, userId: String) {
        let guest = try await call("POST", "/auth/guest")
        return (try #require(guest.body["token"] as? String), try #require(guest.body["userId"] as? String))
    }

    /// Signs in a guest and creates a rally session to 11 for them.
    func hostSession() async throws -> HostedSession {
        let (token, userId) = try await guest()
        let created = try await call("POST", "/sessions", token: token, json: #"{"mode":"rally","pointsToWin":11}"#)
        return HostedSession(token: token, userId: userId, code: try #require(created.body["code"] as? String),
                             hostToken: try #require(created.body["hostToken"] as? String))
    }

    /// Signs in a guest named `name` and joins session `code`; returns their token and user id.
    func joinGuest(named name: String, code: String) async throws -> (token: String, userId: String) {
        let (token, userId) = try await guest()
        _ = try await call("POST", "/users/profile", token: token, json: #"{"displayName":"\#(name)"}"#)
        _ = try await call("POST", "/sessions/\(code)/join", token: token)
        return (token, userId)
    }

    /// A JSON request; returns the status and the decoded object (or nil for a non-object body).
    func call(_ method: String, _ path: String, token: String? = nil, json: String? = nil,
              headers extra: [(String, String)] = []) async throws
        -> (status: Int, body: [String: Any], headers: [String: String])
    {
        var headers: [(String, String)] = [("Content-Type", "application/json")]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        headers += extra
        let response = try await TestHTTPClient.request(.init(rawValue: method), port: port, path: path, body: json,
                                                        headers: headers)
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body.utf8))) as? [String: Any] ?? [:]
        var fields: [String: String] = [:]
        for (name, value) in response.headers { fields[name.lowercased()] = value }
        return (response.status, object, fields)
    }
}

/// Polls `condition` every 20 ms until it holds or `within` has passed; whether it held. The caller asserts what it
/// needs (a test that only waits for a server-side effect before its next step ignores the result).
@discardableResult
func waitUntil(within: Duration, _ condition: () throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + within
    while try !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(20))
    }
    return true
}

/// Reads a JSON text message.
func jsonObject(_ text: String?) -> [String: Any] {
    guard let text, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
        return [:]
    }
    return object
}

/// The `error.code` of a JSON error body (`{"error":{"code":…}}`); nil for another body.
func errorCode(_ body: [String: Any]) -> String? {
    (body["error"] as? [String: Any])?["code"] as? String
}

extension LiveSession {
    /// What `body` reads from the session's state, on its queue.
    func read<Value: Sendable>(_ body: @escaping @Sendable (SessionState) -> Value) async -> Value {
        await withCheckedContinuation { done in read(body) { done.resume(returning: $0) } }
    }
}

extension StreamMonitor.Configuration {
    /// Start and stall timeouts of a minute (reports stay at one a second).
    static var patient: Self {
        var configuration = Self()
        configuration.startTimeout = .seconds(60)
        configuration.stallTimeout = .seconds(60)
        return configuration
    }
}
