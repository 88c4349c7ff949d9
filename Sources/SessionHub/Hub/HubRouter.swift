import Foundation
import PongWire

/// The HTTP routes of the contract (docs/PROTOCOL.md), on top of the hub.
///
/// Routing itself is cheap and runs on the event loop; anything that blocks (the database) is handed to the hub's
/// worker queue, password hashing and photo decoding to bounded pools of their own (`WorkPool`: 503 `server_busy`
/// when full), and anything about a live session to that session's queue.
package struct HubRouter: HTTPRouting {
    let hub: SessionHub

    package func respond(to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void) {
        let segments = request.path.split(separator: "/").map(String.init)
        let origin = request.headers["origin"]
        let allowed = hub.origins.allows(origin: origin, host: request.headers["host"])
        let reply = Reply(completion: completion, metrics: hub.metrics,
                          headers: allowed ? corsHeaders(origin: origin) : [])
        guard allowed else {
            hub.logger.info("origin refused", metadata: ["http.origin": "\(origin ?? "")",
                                                         "http.path": "\(request.path)"])
            return reply.send(.error(.originNotAllowed))
        }
        if let page = webResponse(request, segments: segments) { return reply.send(page) }
        switch (request.method, segments.count > 0 ? segments[0] : "", segments.count) {
        case ("OPTIONS", _, _):
            reply.send(preflight(origin: origin))
        case ("GET", "healthz", 1), ("HEAD", "healthz", 1):
            reply.send(.json(200, #"{"status":"ok"}"#))
        case ("POST", "auth", 2) where segments[1] == "signup":
            signUp(request, reply: reply)
        case ("POST", "auth", 2) where segments[1] == "login":
            logIn(request, reply: reply)
        case ("POST", "auth", 2) where segments[1] == "guest":
            guest(request, reply: reply)
        case ("POST", "auth", 2) where segments[1] == "social":
            socialSignIn(request, reply: reply)
        case ("GET", "auth", 2) where segments[1] == "providers":
            reply.send(providers())
        case ("POST", "users", 2) where segments[1] == "profile":
            updateProfile(request, reply: reply)
        case ("GET", "users", 2) where segments[1] == "me":
            onWorker(reply) { () throws(APIError) in try me(request) }
        case ("GET", "photos", 2):
            onWorker(reply) { () throws(APIError) in try photo(id: segments[1]) }
        case ("POST", "sessions", 1):
            onWorker(reply) { () throws(APIError) in try createSession(request) }
        case ("GET", "sessions", 2):
            lobby(code: segments[1], request: request, reply: reply)
        case ("GET", "sessions", 3) where segments[2] == "qr.svg":
            qrCode(code: segments[1], request: request, reply: reply)
        case ("POST", "sessions", 3) where segments[2] == "join":
            join(code: segments[1], request: request, reply: reply)
        case ("POST", "sessions", 3) where segments[2] == "start" || segments[2] == "end":
            hostControl(segments[2], code: segments[1], request: request, reply: reply)
        case ("POST", "streams", 2) where segments[1] == "start":
            startStreams(request, reply: reply)
        case (_, "healthz", 1), (_, "auth", 2), (_, "users", 2), (_, "sessions", 1...3), (_, "streams", 2):
            reply.send(.error(.methodNotAllowed(request.method)))
        default:
            reply.send(.error(.notFound(request.path)))
        }
    }

    /// Runs blocking work on the worker queue and replies with its response or error.
    func onWorker(_ reply: Reply, _ work: @escaping @Sendable () throws(APIError) -> HTTPResponse) {
        onWorker(reply) { () throws(APIError) -> HTTPResponse? in try work() }
    }

    /// Runs blocking work on the worker queue; replies with its error, or its response unless it is nil (the work
    /// handed the reply on).
    func onWorker(_ reply: Reply, _ work: @escaping @Sendable () throws(APIError) -> HTTPResponse?) {
        hub.worker.async {
            do throws(APIError) {
                if let response = try work() { reply.send(response) }
            } catch {
                reply.send(.error(error))
            }
        }
    }

    /// Runs `work` on `pool` and replies with its response or error; 503 `server_busy` (with `Retry-After: 1`) at
    /// once when the pool's queue is full.
    func on(_ pool: WorkPool, named name: String, _ reply: Reply,
            _ work: @escaping @Sendable () throws(APIError) -> HTTPResponse) {
        let admitted = pool.submit {
            do throws(APIError) {
                reply.send(try work())
            } catch {
                reply.send(.error(error))
            }
        }
        if !admitted {
            hub.logger.warning("work pool full", metadata: [
                "pool.name": "\(name)", "pool.inFlight": "\(pool.inFlight)",
            ])
            reply.send(.error(.serverBusy, retryAfter: 1))
        }
    }

    /// Largest JSON body of every endpoint but `POST /users/profile` (which carries a photo and has the
    /// transport's 3 MiB): no text field of theirs needs more.
    static let maxJSONBodyBytes = 16 * 1024

    /// The request's body decoded as `Value`, or the decoding error as a client error; a body over `limit` bytes is
    /// `payload_too_large` before any parsing.
    func body<Value: Decodable>(_ type: Value.Type, of request: HTTPRequest, limit: Int = maxJSONBodyBytes)
        throws(APIError) -> Value
    {
        guard request.body.count <= limit else { throw .payloadTooLarge(limit: limit) }
        do {
            return try MessageCodec.decode(type, from: request.body.isEmpty ? Array("{}".utf8) : request.body)
        } catch {
            throw error.apiError
        }
    }

    /// The verified bearer token of the request.
    func caller(_ request: HTTPRequest, allowing kinds: Set<AccessToken.Kind> = [.user, .guest, .host])
        throws(APIError) -> AccessToken
    {
        let header = request.headers["authorization"] ?? ""
        let token = header.lowercased().hasPrefix("bearer ") ? String(header.dropFirst(7)) : nil
        return try hub.authenticate(token, allowing: kinds)
    }

    /// The caller's user id when the request carries a token (which must then be valid), nil when it carries none:
    /// for the routes anyone may call whose answer says more to a member (the lobby, the QR code).
    func optionalCaller(_ request: HTTPRequest) throws(APIError) -> UserID? {
        request.headers["authorization"] == nil ? nil : try caller(request).userId
    }

    /// A JSON response of an encodable body.
    func json(_ status: Int, _ value: some Encodable) throws(APIError) -> HTTPResponse {
        .json(status, try MessageCodec.encodeJSON(value))
    }

    /// A store failure: logged, shown to the client as a generic error; on PostgreSQL, an unreachable server is
    /// 503 `store_unavailable` (the call may be tried again).
    func storeFailure(_ error: StoreError) -> APIError {
        hub.logger.error("store failure", metadata: ["error": "\(error)"])
        return hub.apiError(for: error)
    }
}

/// Sends one response with the security headers and the request's CORS headers, counting error responses by code.
struct Reply: Sendable {
    let completion: @Sendable (HTTPResponse) -> Void
    let metrics: HubMetrics
    /// CORS headers for the request's origin (none without one).
    var headers: [(String, String)] = []

    func send(_ response: HTTPResponse) {
        if let code = response.errorCode { metrics.error(code) }
        var response = response.withSecurityHeaders()
        response.headers += headers
        // Several nodes' 503s always say when to come back.
        if response.status == 503, !response.headers.contains(where: { $0.0.lowercased() == "retry-after" }) {
            response.headers.append(("Retry-After", "1"))
        }
        completion(response)
    }
}
