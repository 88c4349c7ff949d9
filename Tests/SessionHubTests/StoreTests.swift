import Foundation
@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Store: opening, users, profiles, photos")
struct StoreTests {
    typealias F = StoreFixture

    @Test("a new store is migrated, in WAL mode, with foreign keys on, at <dataDir>/pongd.sqlite")
    func opens() throws {
        let folder = StoreTestsFolder()
        let store = try SessionStore(dataDirectory: folder.path + "/nested/data")
        #expect(store.path == folder.path + "/nested/data/pongd.sqlite")
        #expect(FileManager.default.fileExists(atPath: store.path))
        #expect(try store.appliedMigrations() == ["v1", "v2-guest-purge", "v3-social-identities", "v4-nodes"])
        #expect(try store.journalMode() == "wal")
        #expect(try store.foreignKeysEnabled())
    }

    @Test("a temporary store lives in its own folder, removed when the store is released")
    func temporary() throws {
        var store: SessionStore? = try SessionStore.temporary()
        let directory = try #require(store?.directory)
        #expect(FileManager.default.fileExists(atPath: directory))
        #expect(try store?.journalMode() == "wal")
        store = nil
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test("a data directory that cannot be created is an .io error")
    func unwritable() {
        #expect(throws: StoreError.io) { try SessionStore(dataDirectory: "/dev/null/pongd") }
    }

    @Test("users are found by id and by email in any letter case; guests have neither email nor password",
          arguments: StoreBackend.available)
    func users(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        let ana = F.registered("u1", email: "Ana@Example.com")
        try store.createUser(ana)
        try store.createUser(F.guest("g1"))
        try store.createUser(F.guest("g2"))
        #expect(try store.user(id: UserID("u1")) == ana)
        #expect(try store.user(byEmail: "ana@example.COM") == ana)
        #expect(try store.user(id: UserID("g1")) == F.guest("g1"))
        #expect(try store.user(id: UserID("nobody")) == nil)
        #expect(try store.user(byEmail: "nobody@example.com") == nil)
    }

    @Test("a second account with the same email in another case is .duplicateEmail; a taken id .duplicateKey",
          arguments: StoreBackend.available)
    func duplicates(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.createUser(F.registered("u1", email: "ana@example.com"))
        #expect(throws: StoreError.duplicateEmail) {
            try store.createUser(F.registered("u2", email: "ANA@example.com"))
        }
        #expect(throws: StoreError.duplicateKey) {
            try store.createUser(F.registered("u1", email: "other@example.com"))
        }
        #expect(try store.user(id: UserID("u2")) == nil)
    }

    @Test("a password hash needs an email; an account of a social sign-in has neither",
          arguments: StoreBackend.available)
    func passwordNeedsEmail(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        let user = StoredUser(id: UserID("u1"), name: "Ana", email: nil, passwordHash: "$scrypt$x", isGuest: false,
                              createdAt: F.t0)
        #expect(throws: StoreError.constraint) { try store.createUser(user) }
        let social = StoredUser(id: UserID("u2"), name: "Bo", email: nil, passwordHash: nil, isGuest: false,
                                createdAt: F.t0)
        try store.createUser(social)
        #expect(try store.user(id: UserID("u2")) == social)
    }

    @Test("a social identity keeps its account; a verified email links to a signed-up account, never to a guest",
          arguments: StoreBackend.available)
    func socialAccounts(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.createUser(F.registered("ana", email: "ana@example.com"))
        func newUser(_ id: String) -> StoredUser {
            StoredUser(id: UserID(id), name: "New", email: nil, passwordHash: nil, isGuest: false, createdAt: F.t0)
        }
        let linked = try store.socialAccount(provider: "google", subject: "g-ana", verifiedEmail: "ana@example.com",
                                             newUser: newUser("n1"))
        #expect(linked.user == UserID("ana") && linked.outcome == .linked)
        #expect(try store.user(id: UserID("n1")) == nil, "no account made when linking")
        let returning = try store.socialAccount(provider: "google", subject: "g-ana", verifiedEmail: nil,
                                                newUser: newUser("n2"))
        #expect(returning.user == UserID("ana") && returning.outcome == .returning)
        let other = try store.socialAccount(provider: "apple", subject: "g-ana", verifiedEmail: nil, newUser: newUser("n3"))
        #expect(other.user == UserID("n3") && other.outcome == .created, "a subject is per provider")
        let withEmail = try store.socialAccount(provider: "apple", subject: "bo", verifiedEmail: "bo@example.com",
                                                newUser: newUser("n4"))
        #expect(withEmail.outcome == .created)
        #expect(try store.user(id: UserID("n4"))?.email == "bo@example.com")
        #expect(try store.identities(of: UserID("ana")).map(\.provider) == ["google"])
        // A deleted account takes its identities with it.
        try store.execute(rawSQL: #"DELETE FROM "user" WHERE id = 'n3'"#)
        #expect(try store.identities(of: UserID("n3")).isEmpty)
    }

    @Test("dates are kept to the millisecond, so records read back equal")
    func millisecondDates() throws {
        let user = F.guest("g1")
        #expect(user.createdAt != F.t0)
        #expect(abs(user.createdAt.timeIntervalSince(F.t0)) < 0.000_5)
        #expect(StoreTime.rounded(user.createdAt) == user.createdAt)
    }

    @Test("a profile is created, updated and read back; a new photo replaces and deletes the old one",
          arguments: StoreBackend.available)
    func profiles(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.createUser(F.registered("u1", email: "ana@example.com"))
        #expect(try store.profile(userId: UserID("u1")) == nil)
        let first = StoredPhoto(id: PhotoID("p1"), userId: UserID("u1"), format: .jpeg, bytes: F.jpeg,
                                createdAt: F.t0)
        try store.savePhoto(first)
        #expect(try store.photo(id: PhotoID("p1")) == first)
        let profile = StoredProfile(userId: UserID("u1"), displayName: "Ana", photoId: PhotoID("p1"), updatedAt: F.t0)
        try store.upsertProfile(profile)
        #expect(try store.profile(userId: UserID("u1")) == profile)

        let second = StoredPhoto(id: PhotoID("p2"), userId: UserID("u1"), format: .png, bytes: F.png,
                                 createdAt: F.at(5))
        try store.savePhoto(second)
        let renamed = StoredProfile(userId: UserID("u1"), displayName: "Ana B", photoId: PhotoID("p2"),
                                    updatedAt: F.at(5))
        try store.upsertProfile(renamed)
        #expect(try store.profile(userId: UserID("u1")) == renamed)
        #expect(try store.photo(id: PhotoID("p1")) == nil)
        #expect(try store.photo(id: PhotoID("p2")) == second)
    }

    @Test("a profile or photo of an unknown user, another user's photo, or a taken photo id is refused",
          arguments: StoreBackend.available)
    func profileConstraints(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.createUser(F.registered("u1", email: "ana@example.com"))
        try store.createUser(F.guest("g1"))
        let photo = StoredPhoto(id: PhotoID("p1"), userId: UserID("g1"), format: .png, bytes: F.png, createdAt: F.t0)
        try store.savePhoto(photo)
        #expect(throws: StoreError.duplicateKey) { try store.savePhoto(photo) }
        #expect(throws: StoreError.constraint) {
            try store.savePhoto(StoredPhoto(id: PhotoID("p2"), userId: UserID("ghost"), format: .png, bytes: F.png,
                                            createdAt: F.t0))
        }
        #expect(throws: StoreError.constraint) {
            try store.upsertProfile(StoredProfile(userId: UserID("ghost"), displayName: "Nobody", updatedAt: F.t0))
        }
        #expect(throws: StoreError.constraint) {
            try store.upsertProfile(StoredProfile(userId: UserID("u1"), displayName: "Ana", photoId: PhotoID("p1"),
                                                  updatedAt: F.t0))
        }
        #expect(throws: StoreError.constraint) {
            try store.upsertProfile(StoredProfile(userId: UserID("u1"), displayName: "Ana", photoId: PhotoID("p9"),
                                                  updatedAt: F.t0))
        }
        #expect(try store.profile(userId: UserID("u1")) == nil)
    }

    @Test("photo ids are 32 hex digits and differ")
    func photoIDs() {
        var random = SystemRandomNumberGenerator()
        let first = PhotoID.generate(using: &random)
        #expect(first.rawValue.count == 32)
        #expect(first.rawValue.allSatisfy { $0.isHexDigit })
        #expect(PhotoID.generate(using: &random) != first)
    }
}
