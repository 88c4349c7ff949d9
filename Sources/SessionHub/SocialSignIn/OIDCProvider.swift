import Foundation

/// An OpenID Connect provider whose ID tokens `POST /auth/social` accepts: one `pongd serve --oidc-provider`.
package struct OIDCProvider: Hashable, Sendable {
    /// What a client names in `provider` (`google`): 1–32 of `a-z`, `0-9`, `-`.
    package var id: String
    /// What a sign-in button shows (`Google`).
    package var name: String
    /// The accepted `iss` values, compared exactly (Google signs with two spellings).
    package var issuers: [String]
    /// The app's client ids: a token's `aud` must name one of them and nothing else.
    package var audiences: [String]
    /// Where the provider's signing keys (its JWKS) are read from.
    package var keys: JWKSSource
    /// The provider's authorization endpoint, where the web pages send a person to sign in (`authorize=`); without
    /// it the pages show no button for the provider (an app may still post its tokens).
    package var authorizationURL: URL?

    package init(id: String, name: String? = nil, issuers: [String], audiences: [String], keys: JWKSSource,
                 authorizationURL: URL? = nil) {
        self.id = id
        self.name = name ?? Self.defaultName(of: id)
        self.issuers = issuers
        self.audiences = audiences
        self.keys = keys
        self.authorizationURL = authorizationURL
    }

    /// A wrong `--oidc-provider` value; the text says what is wrong.
    package struct OptionError: Error, Hashable, CustomStringConvertible {
        package var description: String
    }

    /// Parses `id=google,issuer=https://accounts.google.com,audience=CLIENT_ID,jwks=URL-OR-PATH[,name=Google]`
    /// `[,authorize=https://accounts.google.com/o/oauth2/v2/auth]`:
    /// comma-separated `key=value` pairs, `issuer` and `audience` repeatable, the others once.
    package init(option: String) throws(OptionError) {
        var fields: [String: [String]] = [:]
        for part in option.split(separator: ",", omittingEmptySubsequences: true) {
            guard let equals = part.firstIndex(of: "=") else {
                throw OptionError(description: "\"\(part)\" is not key=value")
            }
            let key = part[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = part[part.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard Self.keys.contains(key) else {
                throw OptionError(description: "unknown key \"\(key)\" (use \(Self.keys.sorted().joined(separator: ", ")))")
            }
            guard !value.isEmpty else { throw OptionError(description: "\(key) is empty") }
            fields[key, default: []].append(value)
        }
        for key in ["id", "jwks", "name", "authorize"] where (fields[key]?.count ?? 0) > 1 {
            throw OptionError(description: "\(key) is given more than once")
        }
        guard let id = fields["id"]?.first, id.count <= 32,
              id.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" })
        else { throw OptionError(description: "id must be 1–32 of a-z, 0-9 and -") }
        guard let issuers = fields["issuer"] else { throw OptionError(description: "issuer is missing") }
        guard let audiences = fields["audience"] else { throw OptionError(description: "audience is missing") }
        guard let jwks = fields["jwks"]?.first else { throw OptionError(description: "jwks is missing") }
        let name = fields["name"]?.first
        if let name, TextRules.visibleText(name, graphemes: 40, bytes: 160) != name {
            throw OptionError(description: "name must be 1–40 visible characters")
        }
        let authorize = try fields["authorize"]?.first.map { (text) throws(OptionError) in
            try Self.webURL(text, key: "authorize")
        }
        self.init(id: id, name: name, issuers: issuers, audiences: audiences, keys: try JWKSSource(parsing: jwks),
                  authorizationURL: authorize)
    }

    private static let keys: Set<String> = ["id", "name", "issuer", "audience", "jwks", "authorize"]

    /// An `https` URL, or `http` on the loopback address (a local issuer, tests), without a fragment.
    static func webURL(_ text: String, key: String) throws(OptionError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(),
              !host.isEmpty, url.fragment == nil
        else { throw OptionError(description: "\(key): \"\(text)\" is not a URL") }
        guard scheme == "https" || (scheme == "http" && loopbackHosts.contains(host)) else {
            throw OptionError(description: "\(key) takes an https URL (plain http only on the loopback address)")
        }
        return url
    }

    /// The host names of the loopback interface, where plain `http` is allowed.
    static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "::1", "[::1]"]

    /// Names of the providers people know; any other id is shown with a capital first letter.
    private static let knownNames = ["google": "Google", "apple": "Apple", "microsoft": "Microsoft",
                                     "facebook": "Facebook", "github": "GitHub", "gitlab": "GitLab"]

    private static func defaultName(of id: String) -> String {
        knownNames[id] ?? id.prefix(1).uppercased() + id.dropFirst()
    }
}

/// Where a provider's JSON Web Key Set comes from: a file (re-read to refresh) or an `https` URL (`http` only on
/// the loopback interface, for tests and a local issuer).
package enum JWKSSource: Hashable, Sendable {
    case file(String)
    case url(URL)

    /// An `http(s)://` value is a URL, anything else a file path.
    package init(parsing text: String) throws(OIDCProvider.OptionError) {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else {
            guard !lowered.contains("://") else {
                throw OIDCProvider.OptionError(description: "jwks takes an https URL or a file path")
            }
            self = .file(text)
            return
        }
        guard let url = URL(string: text), let host = url.host?.lowercased(), !host.isEmpty else {
            throw OIDCProvider.OptionError(description: "jwks: \"\(text)\" is not a URL")
        }
        if url.scheme?.lowercased() == "http", !OIDCProvider.loopbackHosts.contains(host) {
            throw OIDCProvider.OptionError(description: "jwks: plain http is only allowed on the loopback address")
        }
        self = .url(url)
    }
}

extension JWKSSource: CustomStringConvertible {
    package var description: String {
        switch self {
        case .file(let path): path
        case .url(let url): url.absoluteString
        }
    }
}
