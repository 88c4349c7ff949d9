import PongWire
import PostgresNIO

extension PostgresStore {
    @discardableResult
    package func appendEvent(_ event: StoredEvent) throws(StoreError) -> StoredEvent {
        let id = try write { transaction throws(StoreError) in try insert(event, in: transaction) }
        var stored = event
        stored.id = id
        return stored
    }

    package func appendEvents(_ events: [StoredEvent]) throws(StoreError) {
        guard !events.isEmpty else { return }
        try write { transaction throws(StoreError) in
            for event in events { _ = try insert(event, in: transaction) }
        }
    }

    package func events(sessionCode: SessionCode, limit: Int?) throws(StoreError) -> [StoredEvent] {
        let count = limit.map { Int64(max($0, 0)) }
        let newest = try all("""
            SELECT \(unescaped: StoredEvent.columns) FROM event WHERE sessionCode = \(sessionCode.value)
            ORDER BY id DESC LIMIT \(count)
            """, as: StoredEvent.init(postgres:))
        return newest.reversed()
    }

    /// Inserts one event; the id it got.
    private func insert(_ event: StoredEvent, in transaction: PostgresTransaction) throws(StoreError) -> Int64 {
        let id = try transaction.one("""
            INSERT INTO event (sessionCode, playerId, type, payload, at) VALUES (\(event.sessionCode.value),
                \(event.playerId?.rawValue), \(event.kind.rawValue), \(event.payload)::json,
                \(StoreTime.milliseconds(event.at)))
            RETURNING id
            """) { row throws(StoreError) in try row.value("id", as: Int64.self) }
        guard let id else { throw StoreError.io.with(detail: "INSERT … RETURNING id returned no row") }
        return id
    }
}
