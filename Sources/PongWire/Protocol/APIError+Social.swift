// Social sign-in's errors (`POST /auth/social`, docs/SECURITY-accounts.md "Social sign-in").

extension APIError {
    /// `provider` is not one of `GET /auth/providers`.
    package static let unknownProvider = APIError(
        status: 400, code: "unknown_provider", message: "Sign-in with this provider is not available")
    /// The ID token is malformed, not signed by the provider's keys, or signed with a refused algorithm.
    package static let invalidIDToken = APIError(
        status: 401, code: "invalid_id_token", message: "Sign-in could not be verified. Please try again")
    /// The ID token was issued by someone else than the provider.
    package static let idTokenWrongIssuer = APIError(
        status: 401, code: "invalid_id_token", message: "This sign-in was not issued by the provider")
    /// The ID token was issued for another app (its `aud`).
    package static let idTokenWrongAudience = APIError(
        status: 401, code: "invalid_id_token", message: "This sign-in was made for another app")
    /// The ID token's `iat` or `nbf` is in the future.
    package static let idTokenNotYetValid = APIError(
        status: 401, code: "invalid_id_token", message: "This sign-in is not valid yet. Check the device's clock")
    /// The body's `nonce` is not the ID token's `nonce` claim (a token of another sign-in, replayed).
    package static let idTokenNonceMismatch = APIError(
        status: 401, code: "invalid_id_token", message: "This sign-in's nonce does not match. Please sign in again")
    /// The ID token's `exp` has passed.
    package static let idTokenExpired = APIError(
        status: 401, code: "id_token_expired", message: "This sign-in has expired. Please sign in again")
    /// The provider's keys could not be loaded yet; with `Retry-After`.
    package static let providerUnavailable = APIError(
        status: 503, code: "provider_unavailable", message: "The sign-in provider cannot be reached. Try again later")
}
