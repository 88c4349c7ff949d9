import Foundation
import NIOPosix
@testable import PongWire
import Synchronization
import Testing
import TestSupport
@testable import SessionHub

/// What only the PostgreSQL backend has: its own server, migrations shared by nodes, reconnection, the URL. The
/// behaviour both backends share is tested on both by the `StoreTests*` suites.
@Suite("Store: PostgreSQL backend", .enabled(if: PostgresTestServer.unavailable == nil,
                                             Comment(rawValue: PostgresTestServer.unavailable ?? "")))
struct PostgresStoreTests {
    typealias F = StoreFixture

    func server() throws -> PostgresTestServer { try PostgresTestServer.shared.get() }

    @Test("the tests' server starts and a new database is migrated as SQLite is")
    func migrated() throws {
        let store = try StoreBackend.postgres.makeStore()
        #expect(try store.appliedMigrations() == SessionStore.temporary().appliedMigrations())
        #expect(store.backendDescription.hasPrefix("postgres postgres://pongd@/stores"))
    }

    @Test("reopening the database reads everything back identical and applies no migration twice")
    func reopen() throws {
        let url = try server().makeDatabase()
        let codes = [try F.code("ABC234"), try F.code("XYZ789")]
        let first = try PostgresStore(url: url, logger: StoreBackend.quiet)
        try StoreTestsRestart().populate(first, codes: codes)
        let before = try StoreTestsRestart.Snapshot(first, codes: codes)
        try first.close()
        let second = try PostgresStore(url: url, logger: StoreBackend.quiet)
        #expect(try StoreTestsRestart.Snapshot(second, codes: codes) == before)
        #expect(try second.appliedMigrations() == ["v1", "v2-guest-purge", "v3-social-identities", "v4-nodes"])
    }

    @Test("a v2 database (before social sign-in) migrates to v3 with every row and foreign key kept")
    func v2ToV3() throws {
        let url = try server().makeSchema()
        let old = try PostgresStore(url: url, logger: StoreBackend.quiet, readers: 1, migratingUpTo: "v2-guest-purge")
        #expect(try old.appliedMigrations() == ["v1", "v2-guest-purge"])
        for row in [#"INSERT INTO "user" VALUES ('u1', 'Ana', 'ana@example.com', '$scrypt$h', false, 1000)"#,
                    #"INSERT INTO "user" VALUES ('g1', 'Guest', NULL, NULL, true, 2000)"#,
                    #"INSERT INTO photo VALUES ('p1', 'u1', 'image/png', '\x89504e47', 1000)"#,
                    "INSERT INTO profile VALUES ('u1', 'Ana', 'p1', 1000)",
                    "INSERT INTO session VALUES ('ABC234', 'u1', 'rally', 11, 'standard', 'waiting', 1000, 1000, NULL)",
                    "INSERT INTO membership VALUES ('pl1', 'ABC234', 'g1', 'resume', '{}', 1000, NULL)"] {
            try old.execute(rawSQL: row)
        }
        // v2 still wants an email and a password of a signed-up account.
        #expect(throws: StoreError.constraint) {
            try old.createUser(StoredUser(id: UserID("s1"), name: "S", email: nil, passwordHash: nil, isGuest: false,
                                          createdAt: F.t0))
        }
        try old.close()
        let store = try PostgresStore(url: url, logger: StoreBackend.quiet)
        #expect(try store.appliedMigrations() == ["v1", "v2-guest-purge", "v3-social-identities", "v4-nodes"])
        #expect(try store.user(byEmail: "ana@example.com")?.passwordHash == "$scrypt$h")
        #expect(try store.photo(id: PhotoID("p1"))?.bytes == [0x89, 0x50, 0x4E, 0x47])
        #expect(try store.memberships(sessionCode: try F.code("ABC234")).count == 1)
        try store.createUser(StoredUser(id: UserID("s1"), name: "S", email: nil, passwordHash: nil, isGuest: false,
                                        createdAt: F.t0))
        try store.execute(rawSQL: #"DELETE FROM "user" WHERE id = 'g1'"#)
        #expect(try store.memberships(sessionCode: try F.code("ABC234")).isEmpty)
        try store.execute(rawSQL: #"DELETE FROM "user" WHERE id = 'u1'"#)
        #expect(try store.photo(id: PhotoID("p1")) == nil)
    }

    @Test("nodes opening one empty database at once migrate it exactly once (advisory lock)")
    func concurrentMigrations() throws {
        let url = try server().makeDatabase()
        let results = Mutex<[Result<[String], StoreError>]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let result = Result { () throws(StoreError) -> [String] in
                try PostgresStore(url: url, logger: StoreBackend.quiet).appliedMigrations()
            }
            results.withLock { $0.append(result) }
        }
        for result in results.withLock({ $0 }) { #expect(try result.get() == ["v1", "v2-guest-purge", "v3-social-identities", "v4-nodes"]) }
    }

    @Test("over TCP on loopback too; a server that does not answer is .io within the connect timeout")
    func tcpAndUnreachable() throws {
        let server = try server()
        let name = try server.makeDatabaseName()
        let store = try PostgresStore(url: try DatabaseURL(server.tcpURL(database: name)), logger: StoreBackend.quiet)
        try store.createUser(F.guest("g1"))
        #expect(try store.user(id: UserID("g1")) == F.guest("g1"))
        let closed = "postgres://pongd@127.0.0.1:\(freeLoopbackPort())/x?sslmode=disable"
        let started = ContinuousClock.now
        #expect(throws: StoreError.io) { try PostgresStore(url: try DatabaseURL(closed), logger: StoreBackend.quiet) }
        #expect(ContinuousClock.now - started < .seconds(6))
        let unknownDatabase = try DatabaseURL(server.tcpURL(database: "missing"))
        #expect(throws: StoreError.io) { try PostgresStore(url: unknownDatabase, logger: StoreBackend.quiet) }
    }

    @Test("""
        a discarded connection lives until its channel has closed: dropping the last reference first tripped \
        PostgresNIO's deinit assertion (the test process crashed on CI)
        """)
    func discardedConnectionClosesFirst() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let link = PostgresLink(id: 1, configuration: try PostgresStore.connectionConfiguration(try server().makeDatabase()),
                                eventLoop: group.next(), logger: StoreBackend.quiet, timeout: .seconds(10))
        defer { link.close() }
        for round in 0..<20 {
            // A healthy connection discarded as a failed body would: the link's reference goes at once, the
            // caller's as `withConnection` returns, while the close is usually still on its way to the event loop
            // (without the fix the process crashed here within a few rounds).
            try link.withConnection { connection throws(StoreError) in link.discard(connection) }
            let reopened = try link.withConnection { connection throws(StoreError) in connection.isClosed }
            #expect(!reopened, "round \(round): the next use opens a new connection")
        }
    }

    @Test("connections the server ends are opened again: at most the call that finds one broken fails")
    func reconnects() throws {
        // A database of its own: the connections of every store on it are ended.
        let store = try PostgresStore(url: try server().makeDatabase(), logger: StoreBackend.quiet)
        try store.createUser(F.guest("g1"))
        for _ in 0..<4 { _ = try store.user(id: UserID("g1")) }
        try store.execute(rawSQL: """
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid()
            """)
        var failures = 0
        for _ in 0..<8 {
            do {
                #expect(try store.user(id: UserID("g1")) == F.guest("g1"))
            } catch {
                #expect(error == .io)
                failures += 1
            }
        }
        #expect(failures <= 3, "one failed call per reader connection at most")
        try store.createUser(F.guest("g2"))
        #expect(try store.user(id: UserID("g2")) != nil)
    }
}
