#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a `PostgresStore` connects: a libpq-style connection URL, as `pongd serve --database` takes it.
///
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=MODE]` over TCP (port 5432 by default), or
/// `postgres://USER@/DB?host=/run/postgresql[&port=PORT]` over the Unix socket in that folder
/// (`<dir>/.s.PGSQL.<port>`). `postgresql://` is the same. The database defaults to the user's name; a password
/// missing from the URL is taken from `PGPASSWORD`. `sslmode` is libpq's: `disable`, `prefer` (the default: TLS
/// when the server offers it, certificate not checked), `require` (TLS or no connection, certificate not checked)
/// or `verify-full` (TLS with the certificate checked against the system's roots and the host name). `options` is
/// libpq's too, server settings for the session: `?options=-c%20search_path%3Dpongd` keeps the tables in schema
/// `pongd`.
package struct DatabaseURL: Hashable, Sendable, CustomStringConvertible {
    /// TLS on a TCP connection (libpq's `sslmode`).
    package enum TLSMode: String, Hashable, Sendable {
        case disable, prefer, require
        case verifyFull = "verify-full"
    }

    /// Where the server listens.
    package enum Endpoint: Hashable, Sendable {
        /// A host name or address and port.
        case tcp(host: String, port: Int)
        /// The socket file (`<folder>/.s.PGSQL.<port>`).
        case socket(path: String)
    }

    package var endpoint: Endpoint
    package var user: String
    package var password: String?
    package var database: String
    package var tls: TLSMode
    /// Server settings for each connection (libpq's `options`, e.g. `-c search_path=pongd`).
    package var options: String?

    /// Why a `--database` URL was refused.
    package struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong, for the command line.
        package let description: String
    }

    /// Parses `text`; `environment` supplies `PGPASSWORD` when the URL has no password.
    package init(_ text: String, environment: [String: String] = [:]) throws(ParseError) {
        guard let components = URLComponents(string: text),
              let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme.lowercased())
        else {
            throw ParseError(description: "\(Self.redacted(text)): expected postgres://USER@HOST:PORT/DB")
        }
        var options: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard ["sslmode", "host", "port", "options"].contains(item.name), let value = item.value, !value.isEmpty
            else {
                throw ParseError(description: "unknown or empty option \(item.name) (known: sslmode, host, port, "
                                     + "options)")
            }
            options[item.name] = value
        }
        let portText = options["port"] ?? components.port.map(String.init) ?? "5432"
        guard let port = Int(portText), (1...65_535).contains(port) else {
            throw ParseError(description: "port \(portText) is not a TCP port")
        }
        if let folder = options["host"] {
            guard folder.hasPrefix("/") else {
                throw ParseError(description: "host=\(folder): a socket folder must be an absolute path")
            }
            endpoint = .socket(path: (folder.hasSuffix("/") ? folder : folder + "/") + ".s.PGSQL.\(port)")
        } else {
            guard let host = components.host, !host.isEmpty else {
                throw ParseError(description: "no host: postgres://USER@HOST:PORT/DB, or ?host=/socket/folder")
            }
            endpoint = .tcp(host: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host, port: port)
        }
        user = components.user?.removingPercentEncoding ?? "postgres"
        password = components.password?.removingPercentEncoding ?? environment["PGPASSWORD"]
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? user : (path.removingPercentEncoding ?? path)
        guard let mode = TLSMode(rawValue: options["sslmode"] ?? "prefer") else {
            throw ParseError(description: "sslmode=\(options["sslmode"] ?? ""): expected disable, prefer, require "
                                 + "or verify-full")
        }
        tls = mode
        self.options = options["options"]
    }

    /// The URL without its password, for logs.
    package var description: String {
        switch endpoint {
        case .tcp(let host, let port):
            return "postgres://\(user)@\(host):\(port)/\(database)?sslmode=\(tls.rawValue)" + settings
        case .socket(let path):
            return "postgres://\(user)@/\(database) (socket \(path))" + settings
        }
    }

    private var settings: String { options.map { " (options \($0))" } ?? "" }

    /// `text` with any password replaced by `***`.
    private static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? "(unreadable URL)"
    }
}
