import Foundation

/// A player socket's address: what the server named (a join's `websocketURL`, a 4101's close reason) resolved the
/// way a browser does, `new URL(reference, base)`, its scheme made `ws` (`http`, `ws`) or `wss` (`https`, `wss`),
/// with the phone's `?token=` (docs/PROTOCOL.md, "URLs").
struct SocketURL: Hashable, Sendable, CustomStringConvertible {
    /// `wss` (TLS), which the simulator cannot speak; `ws` otherwise.
    var secure: Bool
    /// Host name or address.
    var host: String
    /// TCP port (80 or 443 when the URL names none).
    var port: Int
    /// Path and query, `/sessions/ABC234/player/u1?token=…`.
    var path: String

    /// The node the socket reaches, `host:port` (the report's per-node counts).
    var node: String { "\(host):\(port)" }

    /// The URL as text, `ws://host:port/path?query`.
    var description: String { "\(secure ? "wss" : "ws")://\(host):\(port)\(path)" }

    /// The base for resolving a reference met on this socket (a 4101's reason).
    var url: URL? { URL(string: description) }

    /// `reference` (a path, or an absolute `http(s)`/`ws(s)` URL) resolved against `base`, with `token` as its
    /// `token` query item (replacing any); nil when the result has no host or another scheme.
    static func resolve(_ reference: String, against base: URL?, token: String) -> SocketURL? {
        guard let resolved = URL(string: reference, relativeTo: base)?.absoluteURL,
              var parts = URLComponents(url: resolved, resolvingAgainstBaseURL: false),
              let host = parts.host, !host.isEmpty
        else { return nil }
        let secure: Bool
        switch parts.scheme?.lowercased() {
        case "http", "ws": secure = false
        case "https", "wss": secure = true
        default: return nil
        }
        parts.queryItems = (parts.queryItems ?? []).filter { $0.name != "token" } + [URLQueryItem(name: "token", value: token)]
        let path = parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath
        return SocketURL(secure: secure, host: host, port: parts.port ?? (secure ? 443 : 80),
                         path: path + "?" + (parts.percentEncodedQuery ?? ""))
    }
}
