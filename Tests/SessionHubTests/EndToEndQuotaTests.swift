import Foundation
@testable import PongWire
import Testing
@testable import SessionHub

/// Issue 12, item 6 ("No quotas") against a real server: guests per address, live sessions per user, photo bytes
/// per user, the purge of unjoined guests, and a profile update that costs the same at 20,000 live sessions.
@Suite("End to end: quotas", .serialized, .timeLimit(.minutes(3)))
struct EndToEndQuotaTests {
    private func code(_ answer: (status: Int, body: [String: Any], headers: [String: String])) -> String? {
        (answer.body["error"] as? [String: Any])?["code"] as? String
    }

    @Test("guests from one address: the burst, then 429 too_many_guests with Retry-After")
    func guestsPerAddress() async throws {
        let server = try await HubTestServer.start { configuration in
            configuration.quotas.guestBurst = 3
            configuration.quotas.guestsPerSecond = 3.0 / 3600
        }
        var statuses: [Int] = []
        for _ in 0..<4 { statuses.append(try await server.call("POST", "/auth/guest").status) }
        #expect(statuses == [201, 201, 201, 429])
        let limited = try await server.call("POST", "/auth/guest")
        #expect(code(limited) == "too_many_guests")
        #expect((1...1200).contains(Int(limited.headers["retry-after"] ?? "") ?? 0))
        try await server.stop()
    }

    @Test("live sessions per user: beyond the limit 429 too_many_sessions; ending one frees a place")
    func sessionsPerUser() async throws {
        let server = try await HubTestServer.start { $0.quotas.maxLiveSessionsPerUser = 2 }
        let guest = try await server.call("POST", "/auth/guest")
        let token = try #require(guest.body["token"] as? String)
        let create = #"{"mode":"rally","pointsToWin":11}"#
        var answers: [(status: Int, body: [String: Any], headers: [String: String])] = []
        for _ in 0..<3 { answers.append(try await server.call("POST", "/sessions", token: token, json: create)) }
        #expect(answers.map(\.status) == [201, 201, 429])
        #expect(code(answers[2]) == "too_many_sessions")
        let other = try await server.call("POST", "/auth/guest")
        let otherToken = try #require(other.body["token"] as? String)
        #expect(try await server.call("POST", "/sessions", token: otherToken, json: create).status == 201)

        let first = try #require(answers[0].body["code"] as? String)
        let hostToken = try #require(answers[0].body["hostToken"] as? String)
        #expect(try await server.call("POST", "/sessions/\(first)/end", token: hostToken).status == 200)
        var again = 0
        for _ in 0..<50 where again != 201 {
            again = try await server.call("POST", "/sessions", token: token, json: create).status
            if again != 201 { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(again == 201)
        try await server.stop()
    }

    @Test("after a restart the index is rebuilt: restored sessions count for their host, and hear their players' updates")
    func restoredIndex() async throws {
        let first = try await HubTestServer.start { $0.quotas.maxLiveSessionsPerUser = 1 }
        let hosted = try await first.hostSession()
        let seated = try await first.joinGuest(named: "Kim", code: hosted.code)
        try await first.stop()
        let second = try await HubTestServer.start(dataDirectory: first.dataDirectory) {
            $0.quotas.maxLiveSessionsPerUser = 1
        }
        let again = try await second.call("POST", "/sessions", token: hosted.token,
                                          json: #"{"mode":"rally","pointsToWin":11}"#)
        #expect(again.status == 429)
        #expect(code(again) == "too_many_sessions")
        let renamed = try await second.call("POST", "/users/profile", token: seated.token, json: #"{"displayName":"Lee"}"#)
        #expect(renamed.status == 200)
        second.hub.flushWrites()
        let hostedCode = try #require(SessionCode(userInput: hosted.code))
        let live = try #require(second.hub.session(hostedCode))
        #expect(await live.read { $0.lobby.players.map(\.name) } == ["Lee"])
        try await second.stop()
    }

    @Test("sessions created per user: ending and creating in a loop gets 429 too_many_new_sessions with Retry-After")
    func sessionCreationRate() async throws {
        let server = try await HubTestServer.start { configuration in
            configuration.quotas.sessionBurst = 3
            configuration.quotas.sessionsPerSecond = 3.0 / 3600
        }
        let guest = try await server.call("POST", "/auth/guest")
        let token = try #require(guest.body["token"] as? String)
        var statuses: [Int] = []
        for index in 0..<4 {
            let created = try await server.call("POST", "/sessions", token: token,
                                                json: #"{"mode":"rally","pointsToWin":11}"#)
            statuses.append(created.status)
            // The first stays live: a guest whose sessions all ended is deleted (and its token refused).
            if index == 0 { continue }
            if let code = created.body["code"] as? String, let hostToken = created.body["hostToken"] as? String {
                _ = try await server.call("POST", "/sessions/\(code)/end", token: hostToken)
            } else {
                #expect(code(created) == "too_many_new_sessions")
                #expect(Int(created.headers["retry-after"] ?? "") ?? 0 >= 1)
            }
        }
        #expect(statuses == [201, 201, 201, 429])
        try await server.stop()
    }

    @Test("photo bytes per user per minute: invalid photos count too; beyond, 429 too_many_photo_uploads")
    func photoUploadRate() async throws {
        let server = try await HubTestServer.start { configuration in
            configuration.quotas.photoUploadBurstBytes = Double(ProfilePhoto.maxBytes)
            configuration.quotas.photoUploadBytesPerSecond = Double(ProfilePhoto.maxBytes) / 3600
        }
        let hosted = try await server.hostSession()
        let junk = String(repeating: "A", count: 1_900_000)   // 1.4 MB decoded, not an image
        let first = try await server.call("POST", "/users/profile", token: hosted.token,
                                          json: #"{"displayName":"Ana","photo":"\#(junk)"}"#)
        #expect(first.status == 400)
        #expect(code(first) == "invalid_photo")
        let second = try await server.call("POST", "/users/profile", token: hosted.token,
                                           json: #"{"displayName":"Ana","photo":"\#(junk)"}"#)
        #expect(second.status == 429)
        #expect(code(second) == "too_many_photo_uploads")
        #expect(Int(second.headers["retry-after"] ?? "") ?? 0 >= 1)
        let jpeg = Base64.encoded(try PhotoFixtures.file("photo_64x48.jpg"))
        let other = try await server.hostSession()
        let fine = try await server.call("POST", "/users/profile", token: other.token,
                                         json: #"{"displayName":"Bo","photo":"\#(jpeg)"}"#)
        #expect(fine.status == 200)
        try await server.stop()
    }

    @Test("stored photo bytes per user: a photo over the quota is 413 photo_quota_exceeded and not stored")
    func photoStorage() async throws {
        let server = try await HubTestServer.start { $0.quotas.photoStorageBytesPerUser = 1000 }
        let hosted = try await server.hostSession()
        let png = Base64.encoded(try PhotoFixtures.file("photo_64x48.png"))    // 469 bytes
        let jpeg = Base64.encoded(try PhotoFixtures.file("photo_64x48.jpg"))   // 1700 bytes
        let small = try await server.call("POST", "/users/profile", token: hosted.token,
                                          json: #"{"displayName":"Ana","photo":"\#(png)"}"#)
        #expect(small.status == 200)
        let big = try await server.call("POST", "/users/profile", token: hosted.token,
                                        json: #"{"displayName":"Ana","photo":"\#(jpeg)"}"#)
        #expect(big.status == 413)
        #expect(code(big) == "photo_quota_exceeded")
        let me = try await server.call("GET", "/users/me", token: hosted.token)
        #expect(me.body["photoURL"] as? String == small.body["photoURL"] as? String)
        try await server.stop()
    }

    @Test("guests in no live session are purged after their lifetime; hosts and seated guests stay")
    func unjoinedGuestsPurged() async throws {
        let server = try await HubTestServer.start { configuration in
            configuration.quotas.unjoinedGuestLifetime = .milliseconds(200)
            configuration.quotas.guestPurgeInterval = .zero
        }
        let idle = try await server.call("POST", "/auth/guest")
        let idleToken = try #require(idle.body["token"] as? String)
        let hosted = try await server.hostSession()
        let seated = try await server.joinGuest(named: "Kim", code: hosted.code)
        try await Task.sleep(for: .milliseconds(300))
        var status = 0
        for _ in 0..<100 where status != 401 {
            _ = try await server.call("POST", "/auth/guest")   // a new guest runs the purge
            status = try await server.call("GET", "/users/me", token: idleToken).status
            if status != 401 { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(status == 401)
        #expect(try server.hub.store.user(id: UserID(idle.body["userId"] as? String ?? "")) == nil)
        let join = try await server.call("POST", "/sessions/\(hosted.code)/join", token: idleToken)
        #expect(join.status == 401)
        #expect(code(join) == "invalid_token")
        #expect(try await server.call("GET", "/users/me", token: hosted.token).status == 200)
        #expect(try await server.call("GET", "/users/me", token: seated.token).status == 200)
        try await server.stop()
    }

    @Test("a profile update costs the same at 20,000 live sessions as at 10 (only the user's sessions are told)")
    func profileUpdateFlat() async throws {
        let server = try await HubTestServer.start()
        let hosted = try await server.hostSession()
        let seated = try await server.joinGuest(named: "Kim", code: hosted.code)
        func medianUpdate() async throws -> Duration {
            var times: [Duration] = []
            for index in 0..<21 {
                let started = ContinuousClock.now
                let answer = try await server.call("POST", "/users/profile", token: seated.token,
                                                   json: #"{"displayName":"Kim \#(index % 3)"}"#)
                times.append(started.duration(to: .now))
                #expect(answer.status == 200)
            }
            return times.sorted()[10]
        }
        // Filler sessions of one filler host, stored and adopted as `POST /sessions` would, without HTTP.
        var random = SystemRandomNumberGenerator()
        var codes: Set<SessionCode> = [try #require(SessionCode(userInput: hosted.code))]
        let filler = UserID("filler-host")
        try server.hub.store.createUser(.guest(id: filler, name: "Host", createdAt: Date()))
        let game = GameSettings(mode: .rally, pointsToWin: .eleven)
        func adopt(_ count: Int) throws {
            for _ in 0..<count {
                let code = try #require(SessionCode.generate(using: &random, avoiding: codes))
                codes.insert(code)
                try server.hub.store.createSession(StoredSession(code: code, hostUserId: filler, game: game,
                                                                 createdAt: Date()))
                let (state, actions) = SessionState.create(code: code, host: .init(userId: filler, name: "Host"),
                                                           game: game, now: .now)
                _ = server.hub.adopt(state, initialActions: actions)
            }
            server.hub.flushWrites()
        }
        try adopt(9)
        let few = try await medianUpdate()
        try adopt(20_000 - 10)
        // Counted work: an event reaching a session marks its activity; no filler session may see one.
        let sample = try codes.prefix(500).filter { $0.value != hosted.code }.map { try #require(server.hub.session($0)) }
        var before: [ContinuousClock.Instant] = []
        for live in sample { before.append(await live.read { $0.lastActivity }) }
        let many = try await medianUpdate()
        server.hub.flushWrites()
        var after: [ContinuousClock.Instant] = []
        for live in sample { after.append(await live.read { $0.lastActivity }) }
        #expect(zip(before, after).filter { $0 != $1 }.count == 0, "filler sessions told of the update")
        // Generous (the machine is shared): it was 30× at 20,000 before the index.
        #expect(many < few * 5 + .milliseconds(20), "10 sessions: \(few), 20,000 sessions: \(many)")
        // The update still reaches the user's own session.
        let hostedCode = try #require(SessionCode(userInput: hosted.code))
        let live = try #require(server.hub.session(hostedCode))
        #expect(await live.read { $0.lobby.players.map(\.name) } == ["Kim 2"])
        try await server.stop()
    }
}
