import Foundation
import PongWire

/// Sign-up and login: limited per client address and per account (`LoginLimiter`), and hashed on the password pool
/// (a `WorkPool`), never on the worker the other endpoints share.
extension HubRouter {
    func signUp(_ request: HTTPRequest, reply: Reply) {
        let form: SignupForm
        do throws(APIError) {
            form = try SignupForm(validating: try body(SignupRequest.self, of: request))
        } catch {
            return reply.send(.error(error))
        }
        if let wait = hub.loginLimiter.withLockedValue({
            $0.attempt(address: request.remoteAddress, account: nil, now: .now)
        }) {
            return reply.send(.error(.tooManyLoginAttempts, retryAfter: wait))
        }
        onPasswordPool(reply) { () throws(APIError) in
            var random = SystemRandomNumberGenerator()
            let hash = try hub.hasher.hash(form.password, using: &random)
            let user = StoredUser(id: UserID(RandomID.hex(bytes: 16)), name: form.name, email: form.email.value,
                                  passwordHash: hash, isGuest: false, createdAt: Date())
            do throws(StoreError) {
                try hub.store.createUser(user)
            } catch where error == .duplicateEmail {
                throw .emailTaken
            } catch {
                throw storeFailure(error)
            }
            hub.logger.info("signed up", metadata: ["user.id": "\(user.id)"])
            return try json(201, AuthResponse(userId: user.id, token: issue(user.id, .user)))
        }
    }

    func logIn(_ request: HTTPRequest, reply: Reply) {
        let login: LoginRequest
        do throws(APIError) {
            login = try body(LoginRequest.self, of: request)
        } catch {
            return reply.send(.error(error))
        }
        let account = login.email.utf8.count <= 1024 ? TextRules.trimmed(login.email).lowercased() : ""
        if let wait = hub.loginLimiter.withLockedValue({
            $0.attempt(address: request.remoteAddress, account: account, now: .now)
        }) {
            hub.logger.info("login limited", metadata: ["http.remote": "\(request.remoteAddress)"])
            return reply.send(.error(.tooManyLoginAttempts, retryAfter: wait))
        }
        // Nothing this long was ever stored: refuse without reading the store or hashing.
        guard login.password.utf8.count <= PasswordPolicy.maximumBytes, login.email.utf8.count <= 1024 else {
            return reply.send(.error(.invalidCredentials))
        }
        onPasswordPool(reply) { () throws(APIError) in
            let stored: StoredUser?
            do throws(StoreError) {
                stored = try hub.store.user(byEmail: account)
            } catch {
                throw storeFailure(error)
            }
            // An unknown email costs one scrypt too (against a dummy hash), so timing does not tell it apart.
            let hash: String
            if let known = stored?.passwordHash { hash = known } else { hash = try hub.dummyPasswordHash.value() }
            let matches = hub.hasher.verify(login.password, against: hash)
            guard let user = stored, stored?.passwordHash != nil, matches else { throw .invalidCredentials }
            return try json(200, AuthResponse(userId: user.id, token: issue(user.id, .user)))
        }
    }

    /// Runs password work on the password pool and replies with its response or error; 503 `server_busy` (with
    /// `Retry-After: 1`) at once when the pool's queue is full.
    func onPasswordPool(_ reply: Reply, _ work: @escaping @Sendable () throws(APIError) -> HTTPResponse) {
        on(hub.passwords, named: "password", reply, work)
    }
}

extension HTTPResponse {
    /// The client-facing form of `error`, with a `Retry-After` of `seconds`.
    static func error(_ error: APIError, retryAfter seconds: Int) -> HTTPResponse {
        var response = HTTPResponse.error(error)
        response.headers.append(("Retry-After", "\(seconds)"))
        return response
    }
}
