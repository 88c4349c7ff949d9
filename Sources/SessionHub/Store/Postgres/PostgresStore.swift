import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// pongd's store on a PostgreSQL server (`pongd serve --database postgres://…`), through postgres-nio: the same
/// tables, rules and errors as the embedded `SessionStore` (`HubStore` is the contract).
///
/// Writes go through one connection, one transaction at a time, in call order: the one-writer design of the SQLite
/// store, so event ids grow in append order and a later write never overtakes an earlier one. A write returns after
/// its COMMIT (with PostgreSQL's default `synchronous_commit = on`, after the server flushed it). Reads use a few
/// connections of their own and see every committed write. A connection that broke is opened again on its next use;
/// the call that found it broken fails with `.io`. The connections run on an event loop of the store's own, and the
/// calls block on them: never call the store from an event loop.
package final class PostgresStore: HubStore {
    /// Where the store connects.
    package let url: DatabaseURL
    private let group: MultiThreadedEventLoopGroup
    private let writer: PostgresLink
    private let readers: [PostgresLink]
    /// Leases and ownership (`SessionOwnershipStore`): a connection of their own, so a lease is never renewed late
    /// behind a queue of writes.
    private let control: PostgresLink
    /// The node this store's new sessions belong to (`createSession` records it as their owner); nil on one node.
    package let node: String?
    private let nextReader = NIOLockedValueBox(0)
    let logger: Logger

    /// Connects to the server at `url` and applies the migrations it lacks (`migrate()`), with `readers`
    /// connections for reads besides the writer's. `.io` when the server cannot be reached or refuses the login.
    /// `node`: the node that owns the sessions this store creates (several nodes; nil on one).
    package convenience init(url: DatabaseURL, logger: Logger, readers: Int = 3, node: String? = nil)
        throws(StoreError)
    {
        try self.init(url: url, logger: logger, readers: readers, migratingUpTo: nil, node: node)
    }

    /// As `init(url:logger:readers:)`, applying the migrations only up to `last` (tests build older schemas).
    init(url: DatabaseURL, logger: Logger, readers: Int, migratingUpTo last: String?, node: String? = nil)
        throws(StoreError)
    {
        self.url = url
        self.node = node
        var logger = logger
        logger[metadataKey: "store"] = "postgres"
        self.logger = logger
        let configuration = try Self.connectionConfiguration(url)
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let eventLoop = group.next()
        writer = PostgresLink(id: 0, configuration: configuration, eventLoop: eventLoop, logger: logger)
        self.readers = (1...max(1, readers)).map {
            PostgresLink(id: $0, configuration: configuration, eventLoop: eventLoop, logger: logger)
        }
        control = PostgresLink(id: readers + 1, configuration: configuration, eventLoop: eventLoop, logger: logger)
        try migrate(upTo: last)
    }

    deinit {
        writer.close()
        control.close()
        for reader in readers { reader.close() }
        group.shutdownGracefully { _ in }
    }

    /// `postgres://user@host:port/db`.
    package var backendDescription: String { "postgres \(url)" }

    /// Closes every connection; later calls fail with `.io`.
    package func close() throws(StoreError) {
        writer.close()
        control.close()
        for reader in readers { reader.close() }
    }

    /// Runs `body` in a transaction on the writer connection, after every write called before it; committed when
    /// `body` returns, rolled back when it throws.
    @discardableResult
    func write<Value>(_ body: (PostgresTransaction) throws(StoreError) -> Value) throws(StoreError) -> Value {
        try transaction(on: writer, body)
    }

    /// Runs `body` in a transaction on the control connection (leases and ownership), beside the writes.
    @discardableResult
    func controlTransaction<Value>(_ body: (PostgresTransaction) throws(StoreError) -> Value) throws(StoreError)
        -> Value
    {
        try transaction(on: control, body)
    }

    /// Runs `body` in a transaction on `link`: committed when it returns, rolled back when it throws.
    private func transaction<Value>(on link: PostgresLink, _ body: (PostgresTransaction) throws(StoreError) -> Value)
        throws(StoreError) -> Value
    {
        try link.withConnection { (connection) throws(StoreError) -> Value in
            let transaction = PostgresTransaction(connection: connection, logger: logger)
            do throws(StoreError) {
                try transaction.run("BEGIN")
                let value = try body(transaction)
                try transaction.run("COMMIT")
                return value
            } catch {
                do throws(StoreError) {
                    try transaction.run("ROLLBACK")
                } catch {
                    link.discard(connection)
                }
                throw error
            }
        }
    }

    /// Runs `body`'s statements (each its own snapshot) on one of the reader connections.
    func read<Value>(_ body: (PostgresTransaction) throws(StoreError) -> Value) throws(StoreError) -> Value {
        let index = nextReader.withLockedValue { next in
            defer { next = (next + 1) % readers.count }
            return next
        }
        let link = readers[index]
        return try link.withConnection { (connection) throws(StoreError) -> Value in
            do throws(StoreError) {
                return try body(PostgresTransaction(connection: connection, logger: logger))
            } catch {
                if error == .io { link.discard(connection) }
                throw error
            }
        }
    }

    /// Runs one raw SQL statement in a write transaction (tests).
    package func execute(rawSQL: String) throws(StoreError) {
        try write { transaction throws(StoreError) in try transaction.run(PostgresQuery(unsafeSQL: rawSQL)) }
    }

    /// postgres-nio's settings for `url`: TCP (with libpq's `sslmode`) or a Unix socket.
    private static func connectionConfiguration(_ url: DatabaseURL) throws(StoreError)
        -> PostgresConnection.Configuration
    {
        var configuration: PostgresConnection.Configuration
        switch url.endpoint {
        case .socket(let path):
            configuration = .init(unixSocketPath: path, username: url.user, password: url.password,
                                  database: url.database)
        case .tcp(let host, let port):
            let tls: PostgresConnection.Configuration.TLS
            do {
                switch url.tls {
                case .disable:
                    tls = .disable
                case .prefer, .require:
                    var settings = TLSConfiguration.makeClientConfiguration()
                    settings.certificateVerification = .none
                    let context = try NIOSSLContext(configuration: settings)
                    tls = url.tls == .prefer ? .prefer(context) : .require(context)
                case .verifyFull:
                    tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                }
            } catch {
                throw StoreError.io.with(detail: "TLS for \(url): \(error)")
            }
            configuration = .init(host: host, port: port, username: url.user, password: url.password,
                                  database: url.database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = [("application_name", "pongd")]
        if let options = url.options {
            configuration.options.additionalStartupParameters.append(("options", options))
        }
        return configuration
    }
}
