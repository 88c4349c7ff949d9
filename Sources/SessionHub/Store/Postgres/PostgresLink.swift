import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// One PostgreSQL connection, opened on first use and again after it broke, used by one caller at a time.
///
/// `withConnection` holds the link's lock while its body runs, so a caller's statements (a whole transaction) never
/// interleave with another's. The body blocks on the connection's futures: never call it on an event loop.
final class PostgresLink: @unchecked Sendable {
    private let lock = NIOLock()
    private let configuration: PostgresConnection.Configuration
    private let eventLoop: any EventLoop
    private let id: Int
    private let logger: Logger
    /// Longest wait for a connection or a statement (`PostgresTransaction.timeout`).
    let timeout: TimeAmount
    // Guarded by `lock`.
    private var connection: PostgresConnection?
    private var isClosed = false

    init(id: Int, configuration: PostgresConnection.Configuration, eventLoop: any EventLoop, logger: Logger,
         timeout: TimeAmount) {
        self.id = id
        self.timeout = timeout
        self.configuration = configuration
        self.eventLoop = eventLoop
        self.logger = logger
    }

    /// Runs `body` with the open connection (connecting first when there is none or it broke). `.io` when the
    /// link is closed or the server cannot be reached (or does not finish the start-up within `timeout`).
    func withConnection<Value>(_ body: (PostgresConnection) throws(StoreError) -> Value) throws(StoreError) -> Value {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw StoreError.io.with(detail: "the store is closed") }
        let open: PostgresConnection
        if let connection, !connection.isClosed {
            open = connection
        } else {
            do {
                // A server that accepts and never finishes the start-up must not hold the caller either.
                open = try PostgresConnection.connect(on: eventLoop, configuration: configuration, id: id, logger: logger)
                    .wait(atMost: timeout, "a PostgreSQL connection", expired: {}, late: { Self.close($0) })
            } catch {
                throw StoreError(postgres: error)
            }
            connection = open
        }
        return try body(open)
    }

    /// Drops the connection after a failure that may have left it mid-transaction; the next use reconnects.
    func discard(_ broken: PostgresConnection) {
        // Called from inside `withConnection` (the lock is held by this thread).
        if connection === broken { connection = nil }
        // The close completes once the channel is inactive; until then the connection must live (PostgresNIO
        // asserts in its deinit that the channel is closed: the caller's last reference, dropped as `withConnection`
        // returns, came first on CI and crashed the test process).
        Self.close(broken)
    }

    /// Closes `connection`, keeping it alive until its channel is closed (PostgresNIO asserts that in its deinit).
    static func close(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// Closes the connection; later uses fail with `.io`.
    func close() {
        lock.lock()
        defer { lock.unlock() }
        isClosed = true
        if let connection {
            let closing: EventLoopFuture<Void> = connection.close()
            try? closing.wait()
        }
        connection = nil
    }
}
