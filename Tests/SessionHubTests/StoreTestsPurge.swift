import Foundation
@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Store: guest purge after a session ends")
struct StoreTestsPurge {
    typealias F = StoreFixture

    /// Session `ENDED2` hosted by guest `gHost`, seats: signed-up `u1` (p1), guest `gOnly` (p2) with profile and
    /// photo, guest `gBusy` (p3) who also sits in the live session `LVE234`, guest `gHosting` (p4) who hosts
    /// the live session `HST567`. Each seat has a bounce event; then `ENDED2` ends.
    func scenario(_ backend: StoreBackend) throws -> any HubStore {
        let store = try backend.makeStore()
        try store.createUser(F.registered("u1", email: "ana@example.com"))
        for guest in ["gHost", "gOnly", "gBusy", "gHosting"] { try store.createUser(F.guest(guest)) }
        try store.savePhoto(StoredPhoto(id: PhotoID("photo-gOnly"), userId: UserID("gOnly"), format: .jpeg,
                                        bytes: F.jpeg, createdAt: F.t0))
        try store.upsertProfile(StoredProfile(userId: UserID("gOnly"), displayName: "Kid",
                                              photoId: PhotoID("photo-gOnly"), updatedAt: F.t0))
        try store.upsertProfile(StoredProfile(userId: UserID("u1"), displayName: "Ana", updatedAt: F.t0))
        let ended = try F.code("ENDED2")
        let live = try F.code("LVE234")
        try store.createSession(F.session(ended, host: "gHost"))
        try store.createSession(F.session(live, host: "u1"))
        try store.createSession(F.session(try F.code("HST567"), host: "gHosting"))
        for (player, user) in [("p1", "u1"), ("p2", "gOnly"), ("p3", "gBusy"), ("p4", "gHosting")] {
            try store.createMembership(F.seat(player, in: ended, user: user))
            try store.appendEvent(StoredEvent(sessionCode: ended, playerId: PlayerID(player), kind: .bounce, at: F.t0))
        }
        try store.createMembership(F.seat("p5", in: live, user: "gBusy"))
        try store.appendEvent(StoredEvent(sessionCode: ended, kind: .started, at: F.t0))
        try store.updateSessionState(code: ended, to: .ended, at: F.at(60))
        return store
    }

    @Test("guests with no other live session go with profile, photos, seats and their events; others stay",
          arguments: StoreBackend.available)
    func purge(backend: StoreBackend) throws {
        let store = try scenario(backend)
        let ended = try F.code("ENDED2")
        #expect(try store.purgeGuestData(sessionCode: ended) == [UserID("gHost"), UserID("gOnly")])

        #expect(try store.user(id: UserID("gOnly")) == nil)
        #expect(try store.user(id: UserID("gHost")) == nil)
        #expect(try store.profile(userId: UserID("gOnly")) == nil)
        #expect(try store.photo(id: PhotoID("photo-gOnly")) == nil)
        #expect(try store.membership(playerId: PlayerID("p2")) == nil)

        #expect(try store.user(id: UserID("u1")) != nil)
        #expect(try store.profile(userId: UserID("u1"))?.displayName == "Ana")
        #expect(try store.user(id: UserID("gBusy")) != nil)
        #expect(try store.user(id: UserID("gHosting")) != nil)
        #expect(try store.memberships(sessionCode: ended).map(\.playerId) == ["p1", "p3", "p4"].map(PlayerID.init))
        #expect(try store.membership(playerId: PlayerID("p5")) != nil)

        let events = try store.events(sessionCode: ended)
        #expect(events.compactMap(\.playerId) == ["p1", "p3", "p4"].map(PlayerID.init))
        #expect(events.contains { $0.kind == .started })
        let session = try #require(try store.session(code: ended))
        #expect(session.hostUserId == nil && session.state == .ended)
    }

    @Test("once the other live sessions end too, the remaining guests are purged with them",
          arguments: StoreBackend.available)
    func laterPurge(backend: StoreBackend) throws {
        let store = try scenario(backend)
        try store.purgeGuestData(sessionCode: try F.code("ENDED2"))
        let live = try F.code("LVE234")
        try store.updateSessionState(code: live, to: .ended, at: F.at(90))
        #expect(try store.purgeGuestData(sessionCode: live) == [UserID("gBusy")])
        #expect(try store.membership(playerId: PlayerID("p3")) == nil)
        let hosted = try F.code("HST567")
        try store.updateSessionState(code: hosted, to: .ended, at: F.at(95))
        #expect(try store.purgeGuestData(sessionCode: hosted) == [UserID("gHosting")])
        #expect(try store.user(id: UserID("u1")) != nil)
        #expect(try store.purgeGuestData(sessionCode: hosted).isEmpty)
    }

    @Test("a live session is not purged; an unknown one is .notFound", arguments: StoreBackend.available)
    func refused(backend: StoreBackend) throws {
        let store = try scenario(backend)
        #expect(throws: StoreError.invalidState) { try store.purgeGuestData(sessionCode: try F.code("LVE234")) }
        #expect(throws: StoreError.notFound) { try store.purgeGuestData(sessionCode: try F.code("ZZZ999")) }
        #expect(try store.user(id: UserID("gBusy")) != nil)
    }
}

/// Issue 12, item 6: guests in no live session go a day after they were made; photo bytes per user.
@Suite("Store: unjoined guests, photo quota")
struct StoreTestsGuestQuota {
    typealias F = StoreFixture

    @Test("guests older than the cutoff in no live session go, with their photo; the rest stay",
          arguments: StoreBackend.available)
    func unjoinedGuests(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        let day = 86_400.0
        try store.createUser(.guest(id: UserID("gOld"), name: "Guest", createdAt: F.t0))
        try store.createUser(.guest(id: UserID("gNew"), name: "Guest", createdAt: F.at(day)))
        try store.createUser(.guest(id: UserID("gSeated"), name: "Guest", createdAt: F.t0))
        try store.createUser(.guest(id: UserID("gHosting"), name: "Guest", createdAt: F.t0))
        try store.createUser(.guest(id: UserID("gEnded"), name: "Guest", createdAt: F.t0))
        try store.createUser(StoredUser(id: UserID("u1"), name: "Ana", email: "ana@example.com", passwordHash: "x",
                                        isGuest: false, createdAt: F.t0))
        try store.savePhoto(StoredPhoto(id: PhotoID("photo-gOld"), userId: UserID("gOld"), format: .jpeg,
                                        bytes: F.jpeg, createdAt: F.t0))
        let live = try F.code("LVE234")
        let ended = try F.code("END234")
        try store.createSession(F.session(live, host: "gHosting"))
        try store.createSession(F.session(ended, host: "u1"))
        try store.createMembership(F.seat("p1", in: live, user: "gSeated"))
        try store.createMembership(F.seat("p2", in: ended, user: "gEnded"))
        try store.updateSessionState(code: ended, to: .ended, at: F.at(60))

        #expect(try store.purgeUnjoinedGuests(createdBefore: F.at(day - 1)) == [UserID("gEnded"), UserID("gOld")])
        #expect(try store.photo(id: PhotoID("photo-gOld")) == nil)
        #expect(try store.membership(playerId: PlayerID("p2")) == nil)
        for kept in ["gNew", "gSeated", "gHosting", "u1"] { #expect(try store.user(id: UserID(kept)) != nil, "\(kept)") }
        #expect(try store.purgeUnjoinedGuests(createdBefore: F.at(2 * day)) == [UserID("gNew")])
    }

    @Test("the purge deletes at most `limit` guests a call, oldest first", arguments: StoreBackend.available)
    func batches(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        for number in 0..<5 { try store.createUser(.guest(id: UserID("g\(number)"), name: "G", createdAt: F.at(Double(number)))) }
        #expect(try store.purgeUnjoinedGuests(createdBefore: F.at(10), limit: 3) == ["g0", "g1", "g2"].map(UserID.init))
        #expect(try store.purgeUnjoinedGuests(createdBefore: F.at(10), limit: 3) == ["g3", "g4"].map(UserID.init))
    }

    @Test("stored photo bytes per user: the profile's photo is replaced freely, uploads beyond the quota are refused",
          arguments: StoreBackend.available)
    func photoQuota(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.createUser(F.guest("g"))
        func photo(_ id: String) -> StoredPhoto {
            StoredPhoto(id: PhotoID(id), userId: UserID("g"), format: .jpeg, bytes: F.jpeg, createdAt: F.t0)
        }
        let limit = 2 * F.jpeg.count
        #expect(try store.savePhoto(photo("a"), storedBytesLimit: limit))
        try store.upsertProfile(StoredProfile(userId: UserID("g"), displayName: "G", photoId: PhotoID("a"), updatedAt: F.t0))
        #expect(try store.savePhoto(photo("b"), storedBytesLimit: limit))
        #expect(try store.savePhoto(photo("c"), storedBytesLimit: limit))
        #expect(try !store.savePhoto(photo("d"), storedBytesLimit: limit))
        #expect(try store.photo(id: PhotoID("d")) == nil)
    }
}
