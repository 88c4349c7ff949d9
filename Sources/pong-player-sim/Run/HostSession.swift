import NIOCore
import PongClient
import PongWire

/// A session's host: a guest account with a name, the session it created, and its start/end controls.
struct HostSession: Sendable {
    /// Canonical code, `ABC234`.
    var code: String
    /// As shown, `ABC-234`.
    var displayCode: String
    /// The creator's token (start, end).
    var token: String

    /// The code as a person types it from the dashboard: lower case, with the dash (`abc-234`).
    var typedCode: String { displayCode.lowercased() }

    /// Signs in as a guest, sets a display name and creates a rally session.
    static func create(index: Int, server: ServerAddress, on loop: any EventLoop,
                       stats: SimStats) async throws(SimError) -> HostSession {
        let auth = try await call("POST", "/auth/guest", json: "{}", token: nil, server: server, loop: loop,
                                  stats: stats, as: AuthResponse.self)
        let profile = ProfileRequest(displayName: "Host \(index)")
        _ = try await call("POST", "/users/profile", json: PhoneJourney.HTTPCall.json(profile), token: auth.token,
                           server: server, loop: loop, stats: stats, as: Profile.self)
        let body = CreateSessionRequest(mode: .rally, pointsToWin: .eleven)
        let created = try await call("POST", "/sessions", json: PhoneJourney.HTTPCall.json(body), token: auth.token,
                                     server: server, loop: loop, stats: stats, as: CreateSessionResponse.self)
        return HostSession(code: created.code, displayCode: created.displayCode, token: auth.token)
    }

    /// `POST /sessions/{code}/start` or `/end`; true on 200 (errors are counted).
    func control(_ verb: String, server: ServerAddress, on loop: any EventLoop, stats: SimStats) async -> Bool {
        do {
            _ = try await Self.call("POST", "/sessions/\(code)/\(verb)", json: nil, token: token, server: server,
                                    loop: loop, stats: stats, as: SessionControlReply.self)
            return true
        } catch {
            Console.error("host \(displayCode): \(verb) failed: \(error)")
            return false
        }
    }

    private struct SessionControlReply: Decodable { var state: String }

    /// How many 503 `session_unavailable` / `store_unavailable` answers a host call waits out (`Retry-After` each).
    static let maxUnavailableWaits = 10

    /// One HTTP call whose 2xx body decodes as `Value`; an error status is counted by its code and thrown.
    static func call<Value: Decodable>(_ method: String, _ path: String, json: String?, token: String?,
                                       server: ServerAddress, loop: any EventLoop, stats: SimStats,
                                       as: Value.Type) async throws(SimError) -> Value {
        var reply: HTTPClient.Reply
        var waits = 0
        while true {
            do {
                reply = try await HTTPClient.send(method, path, json: json, token: token, host: server.host,
                                                  port: server.port, on: loop).get()
            } catch {
                stats.countError("http_transport")
                throw .http("\(method) \(path): \(error)")
            }
            if (200..<300).contains(reply.status) { break }
            let code = PhoneJourney.errorCode(in: reply.body) ?? "http_\(reply.status)"
            stats.countError(code)
            // The session or the store is out of reach for a moment (a node failing over): wait, try again.
            guard reply.status == 503, PhoneJourney.unavailableCodes.contains(code), waits < maxUnavailableWaits else {
                throw .http("\(method) \(path) answered \(reply.status) \(code)")
            }
            waits += 1
            try? await Task.sleep(for: .seconds(max(0.2, reply.retryAfter ?? 1)))
        }
        guard let value = PhoneJourney.decode(Value.self, reply.body) else {
            stats.countError("unexpected_reply")
            throw .unexpectedReply("\(method) \(path): \(String(decoding: reply.body, as: UTF8.self))")
        }
        return value
    }
}
