/// `POST /auth/signup` body: `{name, email, password, acceptTerms}`.
package struct SignupRequest: Codable, Hashable, Sendable {
    /// Full name (1–100 characters after trimming).
    package var name: String
    /// Email address.
    package var email: String
    /// Password (≥ 10 characters, not a common one).
    package var password: String
    /// Must be true.
    package var acceptTerms: Bool

    package init(name: String, email: String, password: String, acceptTerms: Bool) {
        self.name = name
        self.email = email
        self.password = password
        self.acceptTerms = acceptTerms
    }
}

/// `POST /auth/login` body: `{email, password}`.
package struct LoginRequest: Codable, Hashable, Sendable {
    /// Email address.
    package var email: String
    /// Password.
    package var password: String

    package init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// `POST /auth/guest` body: `{}` (any fields are ignored).
package struct GuestRequest: Codable, Hashable, Sendable {
    package init() {}
}

/// Answer of signup (201), login (200) and guest (201): `{userId, token}`, plus `guest: true` for a guest.
package struct AuthResponse: Codable, Hashable, Sendable {
    /// The account.
    package var userId: UserID
    /// Bearer token for 🔒 endpoints and the player WebSocket's `?token=`.
    package var token: String
    /// `true` for a guest; left out otherwise.
    package var guest: Bool?

    package init(userId: UserID, token: String, guest: Bool? = nil) {
        self.userId = userId
        self.token = token
        self.guest = guest
    }
}

/// `POST /auth/social` body: `{provider, idToken, nonce?}`.
package struct SocialSignInRequest: Codable, Hashable, Sendable {
    /// A provider id of `GET /auth/providers` (`google`).
    package var provider: String
    /// The OpenID Connect ID token the provider gave the app (a compact JWS).
    package var idToken: String
    /// The `nonce` the client sent to the authorization endpoint; when given, the token's `nonce` claim must be it.
    package var nonce: String?

    package init(provider: String, idToken: String, nonce: String? = nil) {
        self.provider = provider
        self.idToken = idToken
        self.nonce = nonce
    }
}

/// `GET /auth/providers` answer: `{"providers":[{"id":"google","name":"Google"}]}`, empty when none is configured;
/// a provider with an authorization endpoint also has `authorizationURL` and `clientId`.
package struct ProvidersResponse: Codable, Hashable, Sendable {
    /// One sign-in button.
    package struct Provider: Codable, Hashable, Sendable {
        /// What `POST /auth/social` takes as `provider`.
        package var id: String
        /// What the button shows.
        package var name: String
        /// Where a web page sends the person to sign in (`authorize=`); absent when not configured.
        package var authorizationURL: String?
        /// The `client_id` a web page asks for (the provider's first audience); with `authorizationURL` only.
        package var clientId: String?

        package init(id: String, name: String, authorizationURL: String? = nil, clientId: String? = nil) {
            self.id = id
            self.name = name
            self.authorizationURL = authorizationURL
            self.clientId = clientId
        }
    }

    /// The configured providers, in button order.
    package var providers: [Provider]

    package init(providers: [Provider]) { self.providers = providers }
}
