import Dispatch
import Foundation
@testable import PongWire
import Testing
@testable import SessionHub

/// Issue 12 ("Hostile clients") against a real server: oversized texts and bodies, logins, photos, origins.
@Suite("End to end: hostile clients", .serialized, .timeLimit(.minutes(2)))
struct EndToEndHostileClientTests {
    @Test("a 2 MB one-character display name is refused, and never reaches a lobby")
    func hugeDisplayName() async throws {
        let server = try await HubTestServer.start()
        let hosted = try await server.hostSession()
        let name = "a" + String(repeating: "\u{0301}", count: 1_000_000)
        let answer = try await server.call("POST", "/users/profile", token: hosted.token,
                                           json: #"{"displayName":"\#(name)"}"#)
        #expect(answer.status == 400)
        #expect((answer.body["error"] as? [String: Any])?["code"] as? String == "invalid_display_name")
        let bidi = try await server.call("POST", "/users/profile", token: hosted.token,
                                         json: #"{"displayName":"Ana\u202Egpj"}"#)
        #expect(bidi.status == 400)
        let blank = try await server.call("POST", "/users/profile", token: hosted.token,
                                          json: #"{"displayName":"\u200B\u200D"}"#)
        #expect(blank.status == 400)
        try await server.stop()
    }

    @Test("JSON bodies other than the profile's are limited to 16 KiB before parsing")
    func bodyLimit() async throws {
        let server = try await HubTestServer.start()
        let padding = String(repeating: " ", count: 20_000)
        let answer = try await server.call("POST", "/auth/login", json: #"{"email":"a@b.cd",\#(padding)"password":"x"}"#)
        #expect(answer.status == 413)
        #expect((answer.body["error"] as? [String: Any])?["code"] as? String == "payload_too_large")
        try await server.stop()
    }
}

/// Issue 12, logins: rate limits, the password pool, equal work for unknown emails.
@Suite("End to end: logins under attack", .serialized, .timeLimit(.minutes(2)))
struct EndToEndLoginTests {
    private let signup = #"{"name":"Hana","email":"hana@example.com","password":"ping pong rally 2026","acceptTerms":true}"#
    private let badLogin = #"{"email":"hana@example.com","password":"not the password"}"#

    @Test("password guesses from one address: the burst, then 429 too_many_attempts with Retry-After")
    func rateLimited() async throws {
        let server = try await HubTestServer.start { configuration in
            configuration.loginBurst = 4
            configuration.loginsPerSecond = 4.0 / 60
        }
        #expect(try await server.call("POST", "/auth/signup", json: signup).status == 201)
        var statuses: [Int] = []
        for _ in 0..<5 { statuses.append(try await server.call("POST", "/auth/login", json: badLogin).status) }
        #expect(statuses == [401, 401, 401, 429, 429])
        let limited = try await server.call("POST", "/auth/login", json: badLogin)
        #expect((limited.body["error"] as? [String: Any])?["code"] as? String == "too_many_attempts")
        #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1)
        try await server.stop()
    }

    @Test("a full password pool answers 503 server_busy at once, and GET /users/me is not held up by it")
    func poolFull() async throws {
        let server = try await HubTestServer.start { configuration in
            configuration.passwordThreads = 1
            configuration.passwordQueue = 0
        }
        let guest = try await server.call("POST", "/auth/guest")
        let token = try #require(guest.body["token"] as? String)
        let gate = DispatchSemaphore(value: 0)
        #expect(server.hub.passwords.submit { gate.wait() })
        let busy = try await server.call("POST", "/auth/login", json: badLogin)
        #expect(busy.status == 503)
        #expect((busy.body["error"] as? [String: Any])?["code"] as? String == "server_busy")
        #expect(busy.headers["retry-after"] == "1")
        let started = ContinuousClock.now
        let me = try await server.call("GET", "/users/me", token: token)
        #expect(me.status == 200)
        #expect(ContinuousClock.now - started < .seconds(1))
        gate.signal()
        try await server.stop()
    }

    @Test("a login with an unknown email takes as long as one with a known email (both run scrypt)")
    func equalWork() async throws {
        let server = try await HubTestServer.start { configuration in
            configuration.passwordHashing = .init(logRounds: 13, blockSize: 8, parallelism: 1)
        }
        #expect(try await server.call("POST", "/auth/signup", json: signup).status == 201)
        // Interleaved, so load from other suites falls on both alike; before the fix the ratio was ~100.
        var known: [Duration] = []
        var unknown: [Duration] = []
        for round in 0..<7 {
            for (email, times) in [("hana@example.com", 0), ("nobody\(round)@example.com", 1)] {
                let started = ContinuousClock.now
                let answer = try await server.call("POST", "/auth/login",
                                                   json: #"{"email":"\#(email)","password":"not the password"}"#)
                #expect(answer.status == 401)
                if times == 0 { known.append(ContinuousClock.now - started) } else {
                    unknown.append(ContinuousClock.now - started)
                }
            }
        }
        let knownMedian = known.sorted()[3]
        let unknownMedian = unknown.sorted()[3]
        #expect(unknownMedian > knownMedian / 3, "known \(knownMedian), unknown \(unknownMedian)")
        #expect(unknownMedian < knownMedian * 3, "known \(knownMedian), unknown \(unknownMedian)")
        try await server.stop()
    }
}

/// Issue 12, photos: what is accepted, what is stored, how it is served.
@Suite("End to end: hostile photos", .serialized, .timeLimit(.minutes(2)))
struct EndToEndPhotoTests {
    private func profile(_ server: HubTestServer, _ token: String, photo: [UInt8]) async throws
        -> (status: Int, body: [String: Any], headers: [String: String])
    {
        try await server.call("POST", "/users/profile", token: token,
                              json: #"{"displayName":"Ana","photo":"\#(Base64.encoded(photo))"}"#)
    }

    @Test("a photo is served without its EXIF, with nosniff and a sandboxing Content-Security-Policy")
    func served() async throws {
        let server = try await HubTestServer.start()
        let hosted = try await server.hostSession()
        let gps = Array("GPSLatitude 48.8584".utf8)
        let jpeg = PhotoFixtures.inserting(marker: 0xE1, Array("Exif\0\0".utf8) + gps,
                                           into: try PhotoFixtures.file("photo_64x48.jpg"))
        let answer = try await profile(server, hosted.token, photo: jpeg)
        #expect(answer.status == 200)
        let url = try #require(answer.body["photoURL"] as? String)
        let photo = try await TestHTTPClient.request(.GET, port: server.port, path: url)
        #expect(photo.status == 200)
        #expect(photo.headers["Content-Type"].first == "image/jpeg")
        #expect(photo.headers["X-Content-Type-Options"].first == "nosniff")
        #expect(photo.headers["Content-Security-Policy"].first == "default-src 'none'; sandbox")
        #expect(!photo.body.contains("GPSLatitude"))
        try await server.stop()
    }

    @Test("a full photo pool answers 503 server_busy to photos and huge bodies; small updates and GET /users/me go on")
    func photoPoolFull() async throws {
        let server = try await HubTestServer.start { configuration in
            configuration.photoThreads = 1
            configuration.photoQueue = 0
        }
        let hosted = try await server.hostSession()
        let gate = DispatchSemaphore(value: 0)
        #expect(server.hub.photos.submit { gate.wait() })
        let busy = try await profile(server, hosted.token, photo: PhotoFixtures.png(width: 8, height: 8))
        #expect(busy.status == 503)
        #expect((busy.body["error"] as? [String: Any])?["code"] as? String == "server_busy")
        // A body over the JSON limit is read on the photo pool too, not on the worker.
        let hugeName = try await server.call("POST", "/users/profile", token: hosted.token,
                                             json: #"{"displayName":"\#(String(repeating: "a", count: 2_000_000))"}"#)
        #expect(hugeName.status == 503)
        let nameOnly = try await server.call("POST", "/users/profile", token: hosted.token,
                                             json: #"{"displayName":"Ana"}"#)
        #expect(nameOnly.status == 200)
        #expect(try await server.call("GET", "/users/me", token: hosted.token).status == 200)
        gate.signal()
        try await server.stop()
    }

    @Test("HTML behind JPEG magic is invalid_photo; a PNG claiming 100000×100000 is photo_dimensions_too_large")
    func refused() async throws {
        let server = try await HubTestServer.start()
        let hosted = try await server.hostSession()
        let html = [0xFF, 0xD8, 0xFF, 0xE0] + Array("<html><script>alert(1)</script></html>".utf8)
        let fake = try await profile(server, hosted.token, photo: html)
        #expect(fake.status == 400)
        #expect((fake.body["error"] as? [String: Any])?["code"] as? String == "invalid_photo")
        let huge = try await profile(server, hosted.token,
                                     photo: PhotoFixtures.png(width: 100_000, height: 100_000, rows: 1))
        #expect(huge.status == 400)
        #expect((huge.body["error"] as? [String: Any])?["code"] as? String == "photo_dimensions_too_large")
        try await server.stop()
    }
}
