import PongWire

/// Why a token was refused.
package struct TokenError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Reason: Hashable, Sendable { case malformed, forged, expired, wrongKind }
    private let reason: Reason

    private init(_ reason: Reason) { self.reason = reason }

    /// Not two base64url parts, or a payload that is not ours.
    package static let malformed = TokenError(.malformed)
    /// The signature does not match (tampered with, or signed with another key).
    package static let forged = TokenError(.forged)
    /// Past its expiry.
    package static let expired = TokenError(.expired)
    /// A valid token of a kind this use does not accept (e.g. a player token on a dashboard).
    package static let wrongKind = TokenError(.wrongKind)

    /// What a client sees: 401 `token_expired` for an expired token, 401 `invalid_token` otherwise.
    package var apiError: APIError { reason == .expired ? .tokenExpired : .invalidToken }

    package var description: String { "TokenError.\(reason)" }
}
