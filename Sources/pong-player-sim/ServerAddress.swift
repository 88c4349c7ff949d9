import Foundation

/// Where pongd listens, from `--server http://HOST:PORT`.
struct ServerAddress: Hashable, Sendable {
    /// Host name or address.
    var host: String
    /// TCP port.
    var port: Int

    /// pong-player-sim's default `--server`, `http://127.0.0.1:8080`.
    static let standard = ServerAddress(host: "127.0.0.1", port: 8080)

    /// `host:port`, how the report names the node.
    var node: String { "\(host):\(port)" }

    /// `http://host:port/`, the base a relative URL in the server's answers is resolved against.
    var url: URL? { URL(string: "http://\(node)/") }

    /// An address from its parts.
    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `http://host:port` (a trailing path is ignored; the port defaults to 80).
    init(parsing url: String) throws(SimError) {
        var rest = Substring(url)
        if rest.hasPrefix("http://") {
            rest = rest.dropFirst("http://".count)
        } else if rest.contains("://") {
            throw .badArgument("--server must be an http:// URL, not \(url)")
        }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        var host = rest
        var port = 80
        if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard let parsed = Int(rest[rest.index(after: colon)...]), (1...65535).contains(parsed) else {
                throw .badArgument("--server has no valid port: \(url)")
            }
            port = parsed
        }
        guard !host.isEmpty else { throw .badArgument("--server has no host: \(url)") }
        self.host = String(host)
        self.port = port
    }
}
