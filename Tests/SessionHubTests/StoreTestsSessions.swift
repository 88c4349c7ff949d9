import Foundation
@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Store: sessions, idle expiry, memberships")
struct StoreTestsSessions {
    typealias F = StoreFixture

    /// A store with a signed-up host `u1` and a guest `g1`.
    func seededStore(_ backend: StoreBackend) throws -> any HubStore {
        let store = try backend.makeStore()
        try store.createUser(F.registered("u1", email: "ana@example.com"))
        try store.createUser(F.guest("g1"))
        return store
    }

    @Test("a session is stored with its settings; its code stays taken; an unknown host is refused",
          arguments: StoreBackend.available)
    func sessions(backend: StoreBackend) throws {
        let store = try seededStore(backend)
        let code = try F.code("ABC234")
        let session = StoredSession(code: code, hostUserId: UserID("u1"), mode: .fullGame, pointsToWin: .twentyOne,
                                    serveRule: .winnerServes, createdAt: F.t0)
        try store.createSession(session)
        let stored = try #require(try store.session(code: code))
        #expect(stored == session)
        #expect(stored.state == .waiting && stored.lastActivityAt == stored.createdAt && stored.endedAt == nil)
        #expect(stored.game == GameSettings(mode: .fullGame, pointsToWin: .twentyOne, serveRule: .winnerServes))
        #expect(throws: StoreError.duplicateKey) { try store.createSession(F.session(code, host: "g1")) }
        #expect(throws: StoreError.constraint) { try store.createSession(F.session(try F.code("XYZ789"), host: "x")) }
        #expect(try store.session(code: try F.code("XYZ789")) == nil)
    }

    @Test("without a chosen serve rule the column is empty and the game shows the standard rule",
          arguments: StoreBackend.available)
    func serveRule(backend: StoreBackend) throws {
        let store = try seededStore(backend)
        let code = try F.code("ABC234")
        try store.createSession(StoredSession(code: code, hostUserId: UserID("u1"), mode: .rally,
                                              pointsToWin: .eleven, createdAt: F.t0))
        let stored = try #require(try store.session(code: code))
        #expect(stored.serveRule == nil)
        #expect(stored.game.serveRule == .standard)
    }

    @Test("state changes count as activity; ending sets endedAt and is final; live codes leave ended sessions out",
          arguments: StoreBackend.available)
    func states(backend: StoreBackend) throws {
        let store = try seededStore(backend)
        let first = try F.code("AAA222")
        let second = try F.code("BBB333")
        try store.createSession(F.session(second, host: "u1"))
        try store.createSession(F.session(first, host: "g1"))
        #expect(try store.liveSessionCodes() == [first, second])

        try store.updateSessionState(code: first, to: .playing, at: F.at(10))
        var stored = try #require(try store.session(code: first))
        #expect(stored.state == .playing && stored.lastActivityAt == StoreTime.rounded(F.at(10)))
        try store.updateSessionState(code: first, to: .ended, at: F.at(20))
        stored = try #require(try store.session(code: first))
        #expect(stored.state == .ended && stored.endedAt == StoreTime.rounded(F.at(20)))
        #expect(try store.liveSessionCodes() == [second])

        try store.updateSessionState(code: first, to: .ended, at: F.at(30))
        #expect(try store.session(code: first)?.endedAt == StoreTime.rounded(F.at(20)))
        #expect(throws: StoreError.invalidState) { try store.updateSessionState(code: first, to: .playing, at: F.t0) }
        #expect(throws: StoreError.notFound) {
            try store.updateSessionState(code: try F.code("CCC444"), to: .playing, at: F.t0)
        }
    }

    @Test("touching moves last activity forward only; an unknown session is .notFound",
          arguments: StoreBackend.available)
    func touch(backend: StoreBackend) throws {
        let store = try seededStore(backend)
        let code = try F.code("ABC234")
        try store.createSession(F.session(code, host: "u1"))
        try store.touchSession(code: code, at: F.at(60))
        try store.touchSession(code: code, at: F.at(30))
        #expect(try store.session(code: code)?.lastActivityAt == StoreTime.rounded(F.at(60)))
        #expect(throws: StoreError.notFound) { try store.touchSession(code: try F.code("XYZ789"), at: F.t0) }
    }

    @Test("idle expiry ends live sessions idle since before the cutoff, once, and returns their codes",
          arguments: StoreBackend.available)
    func idleExpiry(backend: StoreBackend) throws {
        let store = try seededStore(backend)
        let idle = try F.code("AAA222")
        let alsoIdle = try F.code("DDD555")
        let active = try F.code("BBB333")
        let ended = try F.code("CCC444")
        try store.createSession(F.session(idle, host: "u1"))
        try store.createSession(F.session(alsoIdle, host: "u1"))
        try store.createSession(F.session(active, host: "u1"))
        try store.createSession(F.session(ended, host: "u1"))
        try store.updateSessionState(code: alsoIdle, to: .playing, at: F.at(40))
        try store.touchSession(code: active, at: F.at(7_000))
        try store.updateSessionState(code: ended, to: .ended, at: F.at(50))

        let now = F.at(7_300)
        let cutoff = now.addingTimeInterval(-7_200)
        #expect(try store.expireIdleSessions(olderThan: cutoff, now: now) == [idle, alsoIdle])
        for code in [idle, alsoIdle] {
            let stored = try #require(try store.session(code: code))
            #expect(stored.state == .ended && stored.endedAt == StoreTime.rounded(now))
        }
        #expect(try store.session(code: ended)?.endedAt == StoreTime.rounded(F.at(50)))
        #expect(try store.liveSessionCodes() == [active])
        #expect(try store.expireIdleSessions(olderThan: cutoff, now: now).isEmpty)
    }

    @Test("seats are stored, listed in join order and found by resume token or player id",
          arguments: StoreBackend.available)
    func memberships(backend: StoreBackend) throws {
        let store = try seededStore(backend)
        let code = try F.code("ABC234")
        try store.createSession(F.session(code, host: "u1"))
        let late = F.seat("p2", in: code, user: "g1", at: 5)
        let early = F.seat("p1", in: code, user: "u1", at: 1)
        try store.createMembership(late)
        try store.createMembership(early)
        #expect(try store.memberships(sessionCode: code) == [early, late])
        #expect(try store.membership(resumeToken: "resume-p2") == late)
        #expect(try store.membership(playerId: PlayerID("p1")) == early)
        #expect(try store.membership(resumeToken: "nope") == nil)
        #expect(try store.memberships(sessionCode: try F.code("XYZ789")).isEmpty)
    }

    @Test("the journey JSON is replaced as given; text that is not JSON is refused", arguments: StoreBackend.available)
    func journey(backend: StoreBackend) throws {
        let store = try seededStore(backend)
        let code = try F.code("ABC234")
        try store.createSession(F.session(code, host: "u1"))
        try store.createMembership(F.seat("p1", in: code, user: "u1"))
        let json = #"{"phase":"tested","withoutVideo":true,"battery":{"level":64,"charging":false},"name":"Zoë 🏓"}"#
        try store.updateJourney(playerId: PlayerID("p1"), json: json)
        #expect(try store.membership(playerId: PlayerID("p1"))?.journey == json)
        #expect(throws: StoreError.constraint) { try store.updateJourney(playerId: PlayerID("p1"), json: "{phase") }
        #expect(try store.membership(playerId: PlayerID("p1"))?.journey == json)
        #expect(throws: StoreError.notFound) { try store.updateJourney(playerId: PlayerID("p9"), json: "{}") }
    }

    @Test("leaving keeps the first time; an unknown seat is .notFound", arguments: StoreBackend.available)
    func leaving(backend: StoreBackend) throws {
        let store = try seededStore(backend)
        let code = try F.code("ABC234")
        try store.createSession(F.session(code, host: "u1"))
        try store.createMembership(F.seat("p1", in: code, user: "u1"))
        #expect(try store.membership(playerId: PlayerID("p1"))?.isHeld == true)
        try store.markLeft(playerId: PlayerID("p1"), at: F.at(10))
        try store.markLeft(playerId: PlayerID("p1"), at: F.at(20))
        let seat = try #require(try store.membership(playerId: PlayerID("p1")))
        #expect(!seat.isHeld && seat.leftAt == StoreTime.rounded(F.at(10)))
        #expect(throws: StoreError.notFound) { try store.markLeft(playerId: PlayerID("p9"), at: F.t0) }
    }

    @Test("a seat needs a known session and user, a fresh id and token, and a session not ended",
          arguments: StoreBackend.available)
    func membershipConstraints(backend: StoreBackend) throws {
        let store = try seededStore(backend)
        let code = try F.code("ABC234")
        try store.createSession(F.session(code, host: "u1"))
        try store.createMembership(F.seat("p1", in: code, user: "u1"))
        var sameToken = F.seat("p2", in: code, user: "g1")
        sameToken.resumeToken = "resume-p1"
        #expect(throws: StoreError.duplicateKey) { try store.createMembership(sameToken) }
        #expect(throws: StoreError.duplicateKey) { try store.createMembership(F.seat("p1", in: code, user: "g1")) }
        #expect(throws: StoreError.constraint) { try store.createMembership(F.seat("p3", in: code, user: "ghost")) }
        #expect(throws: StoreError.constraint) {
            try store.createMembership(F.seat("p4", in: try F.code("XYZ789"), user: "g1"))
        }
        var notJSON = F.seat("p5", in: code, user: "g1")
        notJSON.journey = "not json"
        #expect(throws: StoreError.constraint) { try store.createMembership(notJSON) }
        try store.updateSessionState(code: code, to: .ended, at: F.at(1))
        #expect(throws: StoreError.invalidState) { try store.createMembership(F.seat("p6", in: code, user: "g1")) }
        #expect(try store.memberships(sessionCode: code).map(\.playerId) == [PlayerID("p1")])
    }
}
