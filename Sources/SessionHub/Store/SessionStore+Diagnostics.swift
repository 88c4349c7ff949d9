import GRDB

extension SessionStore {
    /// SQLite's journal mode for the file (`"wal"` for a store).
    package func journalMode() throws(StoreError) -> String {
        try pragma("journal_mode") ?? ""
    }

    /// True when SQLite enforces foreign keys on the store's connections.
    package func foreignKeysEnabled() throws(StoreError) -> Bool {
        try pragma("foreign_keys") == "1"
    }

    /// Identifiers of the applied migrations, in order (`["v1"]`, …).
    package func appliedMigrations() throws(StoreError) -> [String] {
        try read { db in try Self.migrator.appliedMigrations(db) }
    }

    private func pragma(_ name: String) throws(StoreError) -> String? {
        try read { db in try String.fetchOne(db, sql: "PRAGMA \(name)") }
    }

    /// Runs raw SQL in a write transaction: for tests that need rows the typed API refuses to write.
    package func execute(rawSQL: String) throws(StoreError) {
        try write { db in try db.execute(sql: rawSQL) }
    }
}
