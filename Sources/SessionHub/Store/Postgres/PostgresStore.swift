import Dispatch
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// pongd's store on a PostgreSQL server (`pongd serve --database postgres://…`), through postgres-nio: the same
/// tables, rules and errors as the embedded `SessionStore` (`HubStore` is the contract).
///
/// Writes go through a few connections (`writers`), each one transaction at a time: a write returns after its COMMIT
/// (with PostgreSQL's default `synchronous_commit = on`, after the server flushed it), so a caller's writes made one
/// after the other (a session's, on its queue; the event batches, on theirs) are in order, while writes from several
/// callers commit side by side and share the server's WAL flushes (group commit: on one connection each commit
/// waited for a flush of its own, and joins on PostgreSQL ran at a twelfth of SQLite's rate). Reads use a few
/// connections of their own and see every committed write. A connection that broke is opened again on its next use;
/// the call that found it broken fails with `.io`. The connections run on an event loop of the store's own, and the
/// calls block on them: never call the store from an event loop.
package final class PostgresStore: HubStore {
    /// Where the store connects.
    package let url: DatabaseURL
    private let group: MultiThreadedEventLoopGroup
    private let writers: [PostgresLink]
    /// Writer connections not in use (indices into `writers`), and a count of them to wait on.
    private let idleWriters: NIOLockedValueBox<[Int]>
    private let writerSlots: DispatchSemaphore
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
    /// `timeout`: the longest wait for a connection or a statement's answer, and `controlTimeout` on the lease's
    /// connection (a renewal answered later than the lease is worth nothing): past it the connection is closed and
    /// the call fails with `.io`, as when the server is gone.
    package convenience init(url: DatabaseURL, logger: Logger, readers: Int = 3, writers: Int = 4, node: String? = nil,
                             timeout: TimeAmount = .seconds(10), controlTimeout: TimeAmount = .seconds(10))
        throws(StoreError)
    {
        try self.init(url: url, logger: logger, readers: readers, writers: writers, migratingUpTo: nil, node: node,
                      timeout: timeout, controlTimeout: controlTimeout)
    }

    /// As `init(url:logger:readers:)`, applying the migrations only up to `last` (tests build older schemas).
    init(url: DatabaseURL, logger: Logger, readers: Int, writers: Int = 4, migratingUpTo last: String?,
         node: String? = nil, timeout: TimeAmount = .seconds(10), controlTimeout: TimeAmount = .seconds(10))
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
        let writerCount = max(1, writers)
        self.writers = (0..<writerCount).map {
            PostgresLink(id: $0, configuration: configuration, eventLoop: eventLoop, logger: logger, timeout: timeout)
        }
        idleWriters = NIOLockedValueBox(Array((0..<writerCount).reversed()))
        writerSlots = DispatchSemaphore(value: writerCount)
        self.readers = (1...max(1, readers)).map {
            PostgresLink(id: writerCount + $0, configuration: configuration, eventLoop: eventLoop, logger: logger,
                         timeout: timeout)
        }
        control = PostgresLink(id: writerCount + max(1, readers) + 1, configuration: configuration,
                               eventLoop: eventLoop, logger: logger, timeout: controlTimeout)
        try migrate(upTo: last)
    }

    deinit {
        for writer in writers { writer.close() }
        control.close()
        for reader in readers { reader.close() }
        group.shutdownGracefully { _ in }
    }

    /// `postgres://user@host:port/db`.
    package var backendDescription: String { "postgres \(url)" }

    /// Closes every connection; later calls fail with `.io`.
    package func close() throws(StoreError) {
        for writer in writers { writer.close() }
        control.close()
        for reader in readers { reader.close() }
    }

    /// Runs `body` in a transaction on an idle writer connection (waiting for one when all are busy); committed when
    /// `body` returns, rolled back when it throws.
    @discardableResult
    func write<Value>(_ body: (PostgresTransaction) throws(StoreError) -> Value) throws(StoreError) -> Value {
        writerSlots.wait()
        let index = idleWriters.withLockedValue { $0.removeLast() }
        defer {
            idleWriters.withLockedValue { $0.append(index) }
            writerSlots.signal()
        }
        return try transaction(on: writers[index], body)
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
            let transaction = PostgresTransaction(connection: connection, logger: logger, timeout: link.timeout)
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
                return try body(PostgresTransaction(connection: connection, logger: logger, timeout: link.timeout))
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
    static func connectionConfiguration(_ url: DatabaseURL) throws(StoreError)
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
