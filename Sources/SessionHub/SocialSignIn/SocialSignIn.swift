import Foundation
import Logging

/// The configured OpenID Connect providers (`pongd serve --oidc-provider`), each with its verifier.
package struct SocialSignIn: Sendable {
    /// The providers in the order they were configured (`GET /auth/providers`).
    package let providers: [OIDCProvider]
    private let verifiers: [String: IDTokenVerifier]

    /// Verifiers for `providers`, reading times from `now`.
    package init(providers: [OIDCProvider], now: @escaping @Sendable () -> Date, logger: Logger) {
        self.providers = providers
        var verifiers: [String: IDTokenVerifier] = [:]
        for provider in providers {
            verifiers[provider.id] = IDTokenVerifier(provider: provider, now: now, logger: logger)
        }
        self.verifiers = verifiers
    }

    /// Starts loading every provider's keys (in the background), so the first sign-in does not wait for them.
    func preload() {
        for verifier in verifiers.values {
            Task { await verifier.keys.refresh() }
        }
    }

    /// The identity `token` proves for `provider`; with `nonce`, only a token whose `nonce` claim is that.
    package func verify(provider: String, token: String, nonce: String? = nil) async throws(SocialSignInError)
        -> VerifiedIdentity
    {
        guard let verifier = verifiers[provider] else { throw .unknownProvider(provider) }
        return try await verifier.verify(token, nonce: nonce)
    }

    /// True when `provider` is configured.
    func has(_ provider: String) -> Bool {
        verifiers[provider] != nil
    }
}
