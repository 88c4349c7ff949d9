import Foundation
import PongWire

/// Social sign-in (`POST /auth/social`) and the providers a page may offer (`GET /auth/providers`).
extension HubRouter {
    func providers() -> HTTPResponse {
        let list = hub.social.providers.map {
            ProvidersResponse.Provider(id: $0.id, name: $0.name, authorizationURL: $0.authorizationURL?.absoluteString,
                                       clientId: $0.authorizationURL == nil ? nil : $0.audiences.first)
        }
        return (try? json(200, ProvidersResponse(providers: list))) ?? .error(.internal)
    }

    /// Verifies the ID token (`IDTokenVerifier`; its `nonce` claim must be the body's `nonce` when one is given) and answers like a login, 200 `{userId, token}`, for the account
    /// the identity maps to (`SessionStore.socialAccount`). Limited like logins and signups, per client address.
    func socialSignIn(_ request: HTTPRequest, reply: Reply) {
        let form: SocialSignInRequest
        do throws(APIError) {
            form = try body(SocialSignInRequest.self, of: request)
        } catch {
            return reply.send(.error(error))
        }
        guard hub.social.has(form.provider) else { return reply.send(.error(.unknownProvider)) }
        if let wait = hub.loginLimiter.withLockedValue({
            $0.attempt(address: request.remoteAddress, account: nil, now: .now)
        }) {
            hub.logger.info("social sign-in limited", metadata: ["http.remote": "\(request.remoteAddress)"])
            return reply.send(.error(.tooManyLoginAttempts, retryAfter: wait))
        }
        let hub = hub
        Task {
            do throws(SocialSignInError) {
                let identity = try await hub.social.verify(provider: form.provider, token: form.idToken,
                                                              nonce: form.nonce)
                onWorker(reply) { () throws(APIError) in try account(of: identity) }
            } catch {
                hub.logger.info("social sign-in refused", metadata: [
                    "oidc.provider": "\(form.provider)", "reason": "\(error)",
                ])
                if case .keysUnavailable(let wait) = error {
                    return reply.send(.error(error.apiError, retryAfter: wait))
                }
                reply.send(.error(error.apiError))
            }
        }
    }

    /// The login answer for the account of `identity`, made or linked on first sign-in.
    private func account(of identity: VerifiedIdentity) throws(APIError) -> HTTPResponse {
        let email = identity.verifiedEmail.flatMap { try? EmailAddress(validating: $0).value }
        let name = identity.name.flatMap {
            TextRules.visibleText($0, graphemes: SignupForm.maxNameLength, bytes: SignupForm.maxNameBytes)
        }
        let newUser = StoredUser(id: UserID(RandomID.hex(bytes: 16)), name: name ?? "Player", email: nil,
                                 passwordHash: nil, isGuest: false, createdAt: Date())
        let account: (user: UserID, outcome: SocialAccountOutcome)
        do throws(StoreError) {
            account = try hub.store.socialAccount(provider: identity.provider, subject: identity.subject,
                                                  verifiedEmail: email, newUser: newUser)
        } catch {
            throw storeFailure(error)
        }
        hub.logger.info("social sign-in", metadata: [
            "oidc.provider": "\(identity.provider)", "user.id": "\(account.user)",
            "account": "\(account.outcome.rawValue)",
        ])
        return try json(200, AuthResponse(userId: account.user, token: issue(account.user, .user)))
    }
}
