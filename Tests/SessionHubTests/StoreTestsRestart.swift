import Foundation
@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Store: restart, durability and failures")
struct StoreTestsRestart {
    typealias F = StoreFixture

    /// Everything one store holds, read through the public API.
    struct Snapshot: Equatable {
        var users: [StoredUser?]
        var byEmail: StoredUser?
        var profiles: [StoredProfile?]
        var photos: [StoredPhoto?]
        var sessions: [StoredSession?]
        var live: [SessionCode]
        var memberships: [[StoredMembership]]
        var byToken: StoredMembership?
        var events: [[StoredEvent]]

        init(_ store: any HubStore, codes: [SessionCode]) throws {
            users = try ["u1", "g1"].map { try store.user(id: UserID($0)) }
            byEmail = try store.user(byEmail: "ANA@example.com")
            profiles = try ["u1", "g1"].map { try store.profile(userId: UserID($0)) }
            photos = try ["ph1", "ph2"].map { try store.photo(id: PhotoID($0)) }
            sessions = try codes.map { try store.session(code: $0) }
            live = try store.liveSessionCodes()
            memberships = try codes.map { try store.memberships(sessionCode: $0) }
            byToken = try store.membership(resumeToken: "resume-p2")
            events = try codes.map { try store.events(sessionCode: $0) }
        }
    }

    /// Writes users, profiles, photos, a live and an ended session, seats and events.
    func populate(_ store: any HubStore, codes: [SessionCode]) throws {
        try store.createUser(F.registered("u1", email: "ana@example.com"))
        try store.createUser(F.guest("g1"))
        let large = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try store.savePhoto(StoredPhoto(id: PhotoID("ph1"), userId: UserID("u1"), format: .jpeg,
                                        bytes: F.jpeg + large, createdAt: F.t0))
        try store.savePhoto(StoredPhoto(id: PhotoID("ph2"), userId: UserID("g1"), format: .png, bytes: F.png,
                                        createdAt: F.at(1)))
        try store.upsertProfile(StoredProfile(userId: UserID("u1"), displayName: "Ana", photoId: PhotoID("ph1"),
                                              updatedAt: F.at(2)))
        try store.upsertProfile(StoredProfile(userId: UserID("g1"), displayName: "Zoë 🏓", photoId: PhotoID("ph2"),
                                              updatedAt: F.at(3)))
        try store.createSession(StoredSession(code: codes[0], hostUserId: UserID("u1"), mode: .fullGame,
                                              pointsToWin: .twentyOne, serveRule: .winnerServes, createdAt: F.t0))
        try store.createSession(F.session(codes[1], host: "g1", at: 5))
        try store.createMembership(F.seat("p1", in: codes[0], user: "u1", at: 10))
        try store.createMembership(F.seat("p2", in: codes[0], user: "g1", at: 11))
        try store.createMembership(F.seat("p3", in: codes[1], user: "u1", at: 12))
        try store.updateJourney(playerId: PlayerID("p2"), json: #"{"phase":"ready","battery":{"level":55}}"#)
        try store.updateSessionState(code: codes[0], to: .playing, at: F.at(20))
        for index in 0..<50 {
            let player = PlayerID(index % 2 == 0 ? "p1" : "p2")
            try store.appendEvent(StoredEvent(sessionCode: codes[0], playerId: player, kind: .bounce,
                                              payload: #"{"n":\#(index)}"#, at: F.at(21 + 0.01 * Double(index))))
        }
        try store.markLeft(playerId: PlayerID("p3"), at: F.at(30))
        try store.updateSessionState(code: codes[1], to: .ended, at: F.at(31))
        try store.appendEvent(StoredEvent(sessionCode: codes[1], kind: .ended, payload: #"{"reason":"hostEnded"}"#,
                                          at: F.at(31)))
    }

    @Test("closing and reopening the same folder reads everything back identical, still in WAL mode")
    func restart() throws {
        let folder = StoreTestsFolder()
        let codes = [try F.code("ABC234"), try F.code("XYZ789")]
        let first = try SessionStore(dataDirectory: folder.path)
        try populate(first, codes: codes)
        let before = try Snapshot(first, codes: codes)
        #expect(FileManager.default.fileExists(atPath: first.path + "-wal"))
        try first.close()

        let second = try SessionStore(dataDirectory: folder.path)
        let after = try Snapshot(second, codes: codes)
        #expect(after == before)
        #expect(after.live == [codes[0]])
        #expect(after.events[0].count == 50 && after.memberships[0].count == 2)
        #expect(after.byToken?.journey == #"{"phase":"ready","battery":{"level":55}}"#)
        #expect(try second.journalMode() == "wal")
        #expect(try second.appliedMigrations() == ["v1", "v2-guest-purge", "v3-social-identities", "v4-nodes"])
    }

    @Test("a store released without close keeps its data")
    func releasedWithoutClose() throws {
        let folder = StoreTestsFolder()
        let codes = [try F.code("ABC234"), try F.code("XYZ789")]
        var store: SessionStore? = try SessionStore(dataDirectory: folder.path)
        try populate(try #require(store), codes: codes)
        let before = try Snapshot(try #require(store), codes: codes)
        store = nil
        #expect(try Snapshot(try SessionStore(dataDirectory: folder.path), codes: codes) == before)
    }

    @Test("a closed store answers .io", arguments: StoreBackend.available)
    func closed(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.close()
        #expect(throws: StoreError.io) { try store.user(id: UserID("u1")) }
        #expect(throws: StoreError.io) { try store.createUser(F.guest("g1")) }
    }

    @Test("a stored value that no longer fits its type is .corruptData, not a crash",
          arguments: StoreBackend.available)
    func corruptRows(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.execute(rawSQL: """
            INSERT INTO session (code, hostUserId, mode, pointsToWin, serveRule, state, createdAt, lastActivityAt)
            VALUES ('abc-00', NULL, 'rally', 11, NULL, 'waiting', 0, 0)
            """)
        #expect(throws: StoreError.corruptData) { try store.liveSessionCodes() }
    }

    @Test("SQLite: a value of another type in a column (SQLite keeps it) is .corruptData")
    func corruptTypes() throws {
        let store = try SessionStore.temporary()
        try store.execute(rawSQL: """
            INSERT INTO session (code, hostUserId, mode, pointsToWin, serveRule, state, createdAt, lastActivityAt)
            VALUES ('abc-00', NULL, 'rally', 11, NULL, 'waiting', 0, 0)
            """)
        try store.execute(rawSQL: """
            UPDATE session SET code = 'ABC234', createdAt = 'yesterday';
            """)
        #expect(throws: StoreError.corruptData) { try store.session(code: try F.code("ABC234")) }
    }

    @Test("foreign keys hold: a session of an unknown host, a seat of an unknown session fail as .constraint",
          arguments: StoreBackend.available)
    func foreignKeys(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        if let sqlite = store as? SessionStore { #expect(try sqlite.foreignKeysEnabled()) }
        #expect(throws: StoreError.constraint) { try store.createSession(F.session(try F.code("ABC234"), host: "x")) }
        #expect(throws: StoreError.constraint) {
            try store.execute(rawSQL: "INSERT INTO profile (userId, displayName, updatedAt) VALUES ('x', 'X', 0)")
        }
    }

    @Test("errors compare by kind and carry the database's text for logs", arguments: StoreBackend.available)
    func errorDetail(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.createUser(F.registered("u1", email: "ana@example.com"))
        do {
            try store.createUser(F.registered("u2", email: "Ana@example.com"))
            Issue.record("expected .duplicateEmail")
        } catch {
            #expect(error == .duplicateEmail)
            #expect(error.detail.contains(backend == .sqlite ? "user.email" : PostgresStore.emailIndex))
            #expect(String(describing: error).hasPrefix("StoreError.duplicateEmail"))
        }
    }
}
