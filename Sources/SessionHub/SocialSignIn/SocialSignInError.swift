import PongWire

/// Why an ID token was refused. The client sees the `apiError`; the log gets `description` with the detail.
package enum SocialSignInError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `provider` names no configured provider.
    case unknownProvider(String)
    /// Not a compact JWS of three base64url parts with JSON header and claims, over 8 KiB, or a claim missing or
    /// of the wrong type.
    case malformed(String)
    /// The header's `alg` is not a signature algorithm of the key (`none`, `HS256`, or another key's).
    case algorithm(String)
    /// No `kid`, or one the provider's key set does not have (after a refresh, if one was allowed).
    case unknownKey(String)
    /// The signature does not verify with the key.
    case badSignature
    /// `iss` is not one of the provider's.
    case wrongIssuer(String)
    /// `aud` names none of the app's client ids, or one that is not the app's.
    case wrongAudience([String])
    /// `exp` has passed (beyond the leeway).
    case expired
    /// `iat` or `nbf` is in the future (beyond the leeway).
    case notYetValid
    /// The request gave a `nonce` and the token's `nonce` claim is another or missing.
    case nonceMismatch
    /// The provider's keys have never been loaded (its JWKS URL unreachable since the start); retry in the seconds
    /// given.
    case keysUnavailable(retryAfter: Int)

    /// What the client is answered.
    package var apiError: APIError {
        switch self {
        case .unknownProvider: .unknownProvider
        case .malformed, .algorithm, .unknownKey, .badSignature: .invalidIDToken
        case .wrongIssuer: .idTokenWrongIssuer
        case .wrongAudience: .idTokenWrongAudience
        case .expired: .idTokenExpired
        case .notYetValid: .idTokenNotYetValid
        case .nonceMismatch: .idTokenNonceMismatch
        case .keysUnavailable: .providerUnavailable
        }
    }

    package var description: String {
        switch self {
        case .unknownProvider(let id): "unknown provider \(id)"
        case .malformed(let reason): "malformed token: \(reason)"
        case .algorithm(let alg): "algorithm \(alg) refused"
        case .unknownKey(let kid): "unknown key id \(kid)"
        case .badSignature: "bad signature"
        case .wrongIssuer(let issuer): "wrong issuer \(issuer)"
        case .wrongAudience(let audiences): "wrong audience \(audiences)"
        case .expired: "expired"
        case .notYetValid: "issued in the future"
        case .nonceMismatch: "nonce does not match"
        case .keysUnavailable: "the provider's keys are not loaded"
        }
    }
}

/// Why a provider's key set could not be loaded (logged; the keys loaded before stay in use).
enum JWKSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file or URL answered more than the limit.
    case tooLarge(limit: Int)
    /// The file cannot be read.
    case unreadable(String)
    /// The URL answered another status than 200, or not at all.
    case unreachable(String)
    /// Not a JSON object with a `keys` array.
    case notJWKS
    /// No key in it can verify ID tokens.
    case noUsableKeys

    var description: String {
        switch self {
        case .tooLarge(let limit): "over \(limit) bytes"
        case .unreadable(let reason): "unreadable: \(reason)"
        case .unreachable(let reason): "unreachable: \(reason)"
        case .notJWKS: "not a JWKS document"
        case .noUsableKeys: "no usable signature key"
        }
    }
}
