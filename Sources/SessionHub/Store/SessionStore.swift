#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

/// pongd's embedded database: one SQLite file, `<dataDirectory>/pongd.sqlite`, in WAL mode through a GRDB
/// `DatabasePool`, holding users, profiles, photos, sessions, memberships and events (DESIGN.md, "Persistence and
/// scale").
///
/// Calls are synchronous and may block on disk: make them from a session's queue or a worker, never from an
/// event loop. Every write runs in its own transaction; any number of threads may call at once (writes are
/// serialized, reads run in parallel). Foreign keys are enforced. Timestamps are kept to the millisecond.
package final class SessionStore: Sendable {
    /// File name of the database inside the data directory.
    package static let fileName = "pongd.sqlite"

    /// The folder holding the database file (and its `-wal`/`-shm` companions).
    package let directory: String
    /// The database file.
    package let path: String
    let pool: DatabasePool
    private let removesDirectoryOnDeinit: Bool

    /// Opens (creating the folder and file if needed) and migrates the database in `dataDirectory`. The folder is
    /// made (or narrowed to) 0700, the database and its `-wal`/`-shm` files 0600.
    package convenience init(dataDirectory: String) throws(StoreError) {
        try self.init(dataDirectory: dataDirectory, removesDirectoryOnDeinit: false)
    }

    private init(dataDirectory: String, removesDirectoryOnDeinit: Bool) throws(StoreError) {
        try DataFolder.prepare(dataDirectory)
        directory = dataDirectory
        path = dataDirectory.hasSuffix("/") ? dataDirectory + Self.fileName : dataDirectory + "/" + Self.fileName
        // Owner-only before SQLite opens it: the WAL and shared-memory files take the database file's mode.
        try DataFolder.restrictFile(path)
        for companion in ["-wal", "-shm"] { try DataFolder.restrictIfPresent(path + companion) }
        self.removesDirectoryOnDeinit = removesDirectoryOnDeinit
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.label = "pongd.store"
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(pool)
        } catch {
            throw StoreError(error)
        }
    }

    /// A store in a new folder under the system's temporary directory, deleted with the store (tests, tools).
    package static func temporary() throws(StoreError) -> SessionStore {
        let base = FileManager.default.temporaryDirectory.path
        let folder = base + "/pongd-store-" + UUID().uuidString
        return try SessionStore(dataDirectory: folder, removesDirectoryOnDeinit: true)
    }

    /// Closes the database; later calls fail with `.io`. Called implicitly when the store is released.
    package func close() throws(StoreError) {
        do {
            try pool.close()
        } catch {
            throw StoreError(error)
        }
    }

    deinit {
        guard removesDirectoryOnDeinit else { return }
        try? pool.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `body` in a read-only transaction; any error becomes a `StoreError`.
    func read<Value>(_ body: (Database) throws -> Value) throws(StoreError) -> Value {
        do {
            return try pool.read(body)
        } catch {
            throw StoreError(error)
        }
    }

    /// Runs `body` in a write transaction, rolled back if it throws; any error becomes a `StoreError`.
    func write<Value>(_ body: (Database) throws -> Value) throws(StoreError) -> Value {
        do {
            return try pool.write(body)
        } catch {
            throw StoreError(error)
        }
    }
}
