import GRDB
import PongWire

extension SessionStore {
    /// Stores a new user. Throws `.duplicateEmail` when another user has the email in any letter case,
    /// `.duplicateKey` when the id is taken, `.constraint` for a password hash without an email.
    package func createUser(_ user: StoredUser) throws(StoreError) {
        try write { db in
            try db.execute(sql: "INSERT INTO user (\(StoredUser.columns)) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: user.arguments)
        }
    }

    /// The user with this email, compared case-insensitively; nil if none.
    package func user(byEmail email: String) throws(StoreError) -> StoredUser? {
        try fetchOne(sql: "SELECT \(StoredUser.columns) FROM user WHERE email = ?", arguments: [email],
                     as: StoredUser.init(row:))
    }

    /// The user with this id; nil if none.
    package func user(id: UserID) throws(StoreError) -> StoredUser? {
        try fetchOne(sql: "SELECT \(StoredUser.columns) FROM user WHERE id = ?", arguments: [id.rawValue],
                     as: StoredUser.init(row:))
    }

    /// One row of `sql` decoded by `decode`, nil when there is none.
    func fetchOne<Record>(sql: String, arguments: StatementArguments,
                          as decode: (Row) throws(StoreError) -> Record) throws(StoreError) -> Record? {
        let row = try read { db in try Row.fetchOne(db, sql: sql, arguments: arguments) }
        guard let row else { return nil }
        return try decode(row)
    }

    /// Every row of `sql` decoded by `decode`, in the query's order.
    func fetchAll<Record>(sql: String, arguments: StatementArguments,
                          as decode: (Row) throws(StoreError) -> Record) throws(StoreError) -> [Record] {
        let rows = try read { db in try Row.fetchAll(db, sql: sql, arguments: arguments) }
        var records: [Record] = []
        records.reserveCapacity(rows.count)
        for row in rows { records.append(try decode(row)) }
        return records
    }
}
