import Foundation
import JWTKit
import Logging
import PongWire

/// What a verified ID token says about its holder.
package struct VerifiedIdentity: Hashable, Sendable {
    /// The provider's id (`google`).
    package var provider: String
    /// The provider's stable id of the person (`sub`).
    package var subject: String
    /// The email, only when the provider verified it.
    package var verifiedEmail: String?
    /// The name the provider gives, if any.
    package var name: String?
}

/// Verifies one provider's OpenID Connect ID tokens: the compact JWS's signature with jwt-kit against the
/// provider's key set (`ProviderKeys`), then `iss`, `aud`, `exp`, `iat` and `nbf` against an injected clock.
package struct IDTokenVerifier: Sendable {
    /// Clock skew allowed on `exp`, `iat` and `nbf`.
    package static let leeway: TimeInterval = 60
    /// Longest token accepted: Google's and Apple's are 1–1.5 KiB.
    package static let maxTokenBytes = 8 * 1024

    package let provider: OIDCProvider
    let keys: ProviderKeys
    private let now: @Sendable () -> Date

    package init(provider: OIDCProvider, now: @escaping @Sendable () -> Date, logger: Logger) {
        self.provider = provider
        self.now = now
        keys = ProviderKeys(source: provider.keys, now: now, logger: logger)
    }

    /// The identity `token` proves, or why it proves none. With `nonce` (what the client sent to the authorization
    /// endpoint), the token's `nonce` claim must equal it: a token issued for another sign-in is refused.
    package func verify(_ token: String, nonce: String? = nil) async throws(SocialSignInError) -> VerifiedIdentity {
        guard token.utf8.count <= Self.maxTokenBytes else { throw .malformed("over \(Self.maxTokenBytes) bytes") }
        let header = try Self.header(of: token)
        let alg = header.alg ?? "none"
        guard SigningKeys.signatureAlgorithms.contains(alg) else { throw .algorithm(alg) }
        guard header.crit == nil else { throw .malformed("crit header") }
        guard let kid = header.kid, !kid.isEmpty else { throw .unknownKey("(none)") }
        guard let keySet = await keys.keys(for: kid) else {
            throw .keysUnavailable(retryAfter: await keys.secondsUntilRefresh())
        }
        guard let key = keySet.keys[kid] else { throw .unknownKey(kid) }
        guard key.algorithm?.rawValue == alg else { throw .algorithm(alg) }
        let claims: IDTokenClaims
        do {
            claims = try await keySet.collection.verify(token, as: IDTokenClaims.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw .badSignature
        } catch {
            throw .malformed("\(error)")
        }
        try claims.check(issuers: provider.issuers, audiences: provider.audiences, now: now(), leeway: Self.leeway)
        if let nonce, claims.nonce != nonce { throw .nonceMismatch }
        return VerifiedIdentity(provider: provider.id, subject: claims.sub.value,
                                verifiedEmail: claims.verifiedEmail, name: claims.name)
    }

    /// The JOSE header of a compact JWS (`header.claims.signature`), before anything is verified.
    static func header(of token: String) throws(SocialSignInError) -> JWTHeader {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64.urlDecoded(String(parts[0])) else {
            throw .malformed("not three base64url parts")
        }
        do {
            return try JSONDecoder().decode(JWTHeader.self, from: Data(bytes))
        } catch {
            throw .malformed("header is not a JSON object")
        }
    }
}
