import Foundation
import GRDB
@testable import PongWire
import Testing
@testable import SessionHub

/// Schema migrations of a store written by an older pongd.
@Suite("Store migrations")
struct StoreTestsMigration {
    @Test("a v2 database (before social sign-in) migrates to v3 with every row and foreign key kept")
    func v2ToV3() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pongd-v2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(SessionStore.fileName).path
        do {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            let old = try DatabasePool(path: path, configuration: configuration)
            try SessionStore.migrator.migrate(old, upTo: "v2-guest-purge")
            try old.write { db in
                try db.execute(sql: """
                    INSERT INTO user VALUES ('u1', 'Ana', 'ana@example.com', '$scrypt$h', 0, 1000);
                    INSERT INTO user VALUES ('g1', 'Guest', NULL, NULL, 1, 2000);
                    INSERT INTO photo VALUES ('p1', 'u1', 'image/png', x'89504e47', 1000);
                    INSERT INTO profile VALUES ('u1', 'Ana', 'p1', 1000);
                    INSERT INTO session VALUES ('ABC234', 'u1', 'rally', 11, 'standard', 'waiting', 1000, 1000, NULL);
                    INSERT INTO membership VALUES ('pl1', 'ABC234', 'g1', 'resume', '{}', 1000, NULL);
                    """)
            }
            try old.close()
        }
        let store = try SessionStore(dataDirectory: folder.path)
        #expect(try store.appliedMigrations() == ["v1", "v2-guest-purge", "v3-social-identities", "v4-nodes"])
        #expect(try store.user(byEmail: "ana@example.com")?.passwordHash == "$scrypt$h")
        #expect(try store.user(id: UserID("g1"))?.isGuest == true)
        #expect(try store.profile(userId: UserID("u1"))?.photoId == PhotoID("p1"))
        #expect(try store.memberships(sessionCode: try #require(SessionCode(userInput: "ABC234"))).count == 1)
        #expect(try store.foreignKeysEnabled())
        // The rebuilt table is still the one the others point at: deleting a user cascades to its rows.
        try store.execute(rawSQL: "DELETE FROM user WHERE id = 'g1'")
        #expect(try store.memberships(sessionCode: try #require(SessionCode(userInput: "ABC234"))).isEmpty)
        try store.execute(rawSQL: "DELETE FROM user WHERE id = 'u1'")
        #expect(try store.profile(userId: UserID("u1")) == nil)
        #expect(try store.photo(id: PhotoID("p1")) == nil)
    }
}
