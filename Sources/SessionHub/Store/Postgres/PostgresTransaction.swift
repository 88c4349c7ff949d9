import Logging
import PostgresNIO

/// Statements on one connection, inside a transaction (`PostgresStore.write`) or one at a time (`read`).
struct PostgresTransaction {
    let connection: PostgresConnection
    let logger: Logger
    /// Longest wait for a statement's answer: past it the connection is closed and the call fails with `.io`.
    let timeout: TimeAmount

    /// Runs `query` and collects its rows; server and connection failures (and no answer within `timeout`) become
    /// `StoreError`s.
    @discardableResult
    func run(_ query: PostgresQuery) throws(StoreError) -> PostgresQueryResult {
        let connection = connection
        do {
            return try connection.query(query, logger: logger)
                .wait(atMost: timeout, "a PostgreSQL statement", expired: { PostgresLink.close(connection) })
        } catch {
            throw StoreError(postgres: error)
        }
    }

    /// The rows of `query`, each decoded by `decode`, in the query's order.
    func all<Record>(_ query: PostgresQuery,
                     as decode: (PostgresRecord) throws(StoreError) -> Record) throws(StoreError) -> [Record] {
        let result = try run(query)
        var records: [Record] = []
        records.reserveCapacity(result.rows.count)
        for row in result.rows { records.append(try decode(PostgresRecord(row))) }
        return records
    }

    /// The first row of `query` decoded by `decode`; nil when there is none.
    func one<Record>(_ query: PostgresQuery,
                     as decode: (PostgresRecord) throws(StoreError) -> Record) throws(StoreError) -> Record? {
        guard let row = try run(query).rows.first else { return nil }
        return try decode(PostgresRecord(row))
    }

    /// How many rows `query` (an UPDATE or DELETE) changed.
    func changes(_ query: PostgresQuery) throws(StoreError) -> Int {
        try run(query).metadata.rows ?? 0
    }
}
