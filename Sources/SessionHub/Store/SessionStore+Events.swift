import GRDB
import PongWire

extension SessionStore {
    /// Appends an event (its `id` is ignored) and returns it with the id it got. Throws `.constraint` for an
    /// unknown session or seat, or a payload that is not JSON.
    @discardableResult
    package func appendEvent(_ event: StoredEvent) throws(StoreError) -> StoredEvent {
        let id = try write { db in
            try db.execute(sql: Self.insertEventSQL, arguments: event.insertArguments)
            return db.lastInsertedRowID
        }
        var stored = event
        stored.id = id
        return stored
    }

    /// The session's newest `limit` events (all of them when `limit` is nil), oldest first.
    package func events(sessionCode: SessionCode, limit: Int?) throws(StoreError) -> [StoredEvent] {
        let newest = try fetchAll(sql: """
            SELECT \(StoredEvent.columns) FROM event WHERE sessionCode = ? ORDER BY id DESC LIMIT ?
            """, arguments: [sessionCode.value, limit.map { max($0, 0) } ?? -1], as: StoredEvent.init(row:))
        return newest.reversed()
    }
}

extension SessionStore {
    /// One event row (its columns in `StoredEvent.insertArguments` order).
    static let insertEventSQL = "INSERT INTO event (sessionCode, playerId, type, payload, at) VALUES (?, ?, ?, ?, ?)"

    /// Appends events in one transaction, in order (ids are ignored and not returned). Throws like `appendEvent`;
    /// on error none of them is stored.
    package func appendEvents(_ events: [StoredEvent]) throws(StoreError) {
        guard !events.isEmpty else { return }
        try write { db in
            let statement = try db.cachedStatement(sql: Self.insertEventSQL)
            for event in events { try statement.execute(arguments: event.insertArguments) }
        }
    }
}
