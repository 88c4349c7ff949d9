import PongWire
import PostgresNIO

extension PostgresStore {
    package func createUser(_ user: StoredUser) throws(StoreError) {
        try write { transaction throws(StoreError) in
            try transaction.run("""
                INSERT INTO "user" (\(unescaped: StoredUser.columns)) VALUES (\(user.id.rawValue), \(user.name),
                    \(user.email), \(user.passwordHash), \(user.isGuest), \(StoreTime.milliseconds(user.createdAt)))
                """)
        }
    }

    package func user(byEmail email: String) throws(StoreError) -> StoredUser? {
        try one("""
            SELECT \(unescaped: StoredUser.columns) FROM "user" WHERE lower(email) = lower(\(email) COLLATE "C")
            """, as: StoredUser.init(postgres:))
    }

    package func user(id: UserID) throws(StoreError) -> StoredUser? {
        try one("SELECT \(unescaped: StoredUser.columns) FROM \"user\" WHERE id = \(id.rawValue)",
                as: StoredUser.init(postgres:))
    }

    /// One row of `query` (on a reader) decoded by `decode`, nil when there is none.
    func one<Record>(_ query: PostgresQuery,
                     as decode: (PostgresRecord) throws(StoreError) -> Record) throws(StoreError) -> Record? {
        try read { transaction throws(StoreError) in try transaction.one(query, as: decode) }
    }

    /// Every row of `query` (on a reader) decoded by `decode`, in the query's order.
    func all<Record>(_ query: PostgresQuery,
                     as decode: (PostgresRecord) throws(StoreError) -> Record) throws(StoreError) -> [Record] {
        try read { transaction throws(StoreError) in try transaction.all(query, as: decode) }
    }
}
