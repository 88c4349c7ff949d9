/// Which web origins may use pongd from a browser: WebSocket upgrades, CORS answers and requests carrying an
/// `Origin` header. Pure.
///
/// A request without `Origin` (a native app, curl) is always allowed: the header is what a browser adds, and what a
/// page on another site cannot leave out. `--public-url`'s origin (where pongd's own pages are served) is always
/// allowed; with origins given (`pongd serve --allowed-origin`, repeatable) those too and no other; with none, the
/// request's own origin as well (`http(s)://` + its `Host`).
package struct OriginPolicy: Sendable, Hashable {
    /// The configured origins, normalised; empty means same-origin only.
    package let allowed: Set<String>
    /// The origin of the public base URL, if one is set.
    package let publicOrigin: String?

    package init(allowedOrigins: [String] = [], publicBaseURL: String = "") {
        allowed = Set(allowedOrigins.compactMap(Self.origin(of:)))
        publicOrigin = Self.origin(of: publicBaseURL)
    }

    /// True when a request with these `Origin` and `Host` headers may proceed.
    package func allows(origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        guard let normalized = Self.origin(of: origin) else { return false }
        if normalized == publicOrigin { return true }
        if !allowed.isEmpty { return allowed.contains(normalized) }
        guard let host, !host.isEmpty else { return false }
        return normalized == Self.origin(of: "http://" + host) || normalized == Self.origin(of: "https://" + host)
    }

    /// `scheme://host[:port]` of `url`, lower-cased, without a default port, a path or a trailing slash; nil when
    /// `url` is not an http(s) URL (`null`, empty, another scheme).
    package static func origin(of url: String) -> String? {
        let lowered = url.lowercased()
        let scheme: String
        if lowered.hasPrefix("http://") {
            scheme = "http"
        } else if lowered.hasPrefix("https://") {
            scheme = "https"
        } else {
            return nil
        }
        var authority = lowered.dropFirst(scheme.count + 3).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        let defaultPort = scheme == "http" ? ":80" : ":443"
        if authority.hasSuffix(defaultPort) { authority = authority.dropLast(defaultPort.count) }
        return scheme + "://" + authority
    }
}
