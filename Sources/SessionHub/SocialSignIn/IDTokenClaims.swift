import Foundation
import JWTKit

/// The claims of an OpenID Connect ID token that pongd reads. Decoding fails (a malformed token) when `iss`, `sub`,
/// `aud`, `exp` or `iat` is missing or of the wrong type.
struct IDTokenClaims: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim
    var nbf: NotBeforeClaim?
    var email: String?
    /// `true` or `"true"` (Apple sends a string).
    var emailVerified: BoolClaim?
    var name: String?
    /// What the client sent to the authorization endpoint, echoed by the provider.
    var nonce: String?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nbf, email, name, nonce
        case emailVerified = "email_verified"
    }

    /// Nothing here: `check` does it against the injected clock, after jwt-kit has verified the signature.
    func verify(using algorithm: some JWTAlgorithm) async throws {}

    /// Issuer, audience and times (with `leeway` seconds of clock skew either way), in that order.
    func check(issuers: [String], audiences: [String], now: Date, leeway: TimeInterval)
        throws(SocialSignInError)
    {
        guard issuers.contains(iss.value) else { throw .wrongIssuer(iss.value) }
        // OpenID Connect Core 3.1.3.7: one of the app's client ids, and no audience the app does not trust.
        guard aud.value.contains(where: audiences.contains), aud.value.allSatisfy(audiences.contains) else {
            throw .wrongAudience(aud.value)
        }
        guard now.timeIntervalSince(exp.value) < leeway else { throw .expired }
        guard iat.value.timeIntervalSince(now) <= leeway else { throw .notYetValid }
        if let nbf, nbf.value.timeIntervalSince(now) > leeway { throw .notYetValid }
        guard !sub.value.isEmpty, sub.value.utf8.count <= 255 else { throw .malformed("sub empty or over 255 bytes") }
    }

    /// The email, if the provider says it verified it (`email_verified` true); nil otherwise.
    var verifiedEmail: String? {
        guard emailVerified?.value == true else { return nil }
        return email
    }
}
