import Foundation
import Testing
@testable import SessionHub

/// One venue, one address (issue 13, item 1): joins are limited per user and per session, not per address, so a
/// club's 100 phones behind one Wi-Fi address all get in with default settings. Loopback is that one address.
@Suite("Venue joins", .serialized)
struct VenueJoinTests {
    /// A server with every default of `pongd serve` that a join meets (the test server raises some for speed).
    static func defaultServer() async throws -> HubTestServer {
        let defaults = HubConfiguration(dataDirectory: "")
        return try await HubTestServer.start(joinBurst: defaults.joinBurst, configure: {
            $0.joinsPerSecond = defaults.joinsPerSecond
            $0.loginBurst = defaults.loginBurst
            $0.loginsPerSecond = defaults.loginsPerSecond
        })
    }

    @Test("100 phones from one address (25 sessions × 4) join, open their sockets and are welcomed within 30 s with default settings")
    func hundredPhonesOneAddress() async throws {
        let server = try await Self.defaultServer()
        let clock = ContinuousClock()
        let began = clock.now
        var codes: [String] = []
        for _ in 0..<25 { codes.append(try await server.hostSession().code) }
        let venue = Venue(server: server)
        let sessions = codes
        let welcomed = try await withThrowingTaskGroup(of: Bool.self) { group in
            for phone in 0..<100 {
                group.addTask { try await Self.joinAndSayHello(venue.server, code: sessions[phone / 4], name: "P\(phone)") }
            }
            var count = 0
            for try await ok in group where ok { count += 1 }
            return count
        }
        let elapsed = began.duration(to: clock.now)
        #expect(welcomed == 100)
        #expect(elapsed < .seconds(30), "\(elapsed)")
        let lobby = try await server.call("GET", "/sessions/\(codes[0])")
        #expect(lobby.body["playerCount"] as? Int == 4)
        try await server.stop()
    }

    @Test("joins are limited per user: one user's 11th join in a minute waits, another user from the same address does not")
    func perUser() async throws {
        let server = try await Self.defaultServer()
        let session = try await server.hostSession()
        let (token, _) = try await server.guest()
        var statuses: [Int] = []
        for _ in 0..<11 { statuses.append(try await server.call("POST", "/sessions/\(session.code)/join", token: token).status) }
        #expect(statuses == Array(repeating: 200, count: 10) + [429])
        let (other, _) = try await server.guest()
        #expect(try await server.call("POST", "/sessions/\(session.code)/join", token: other).status == 200)
        try await server.stop()
    }

    @Test("joins are limited per session: beyond its burst newcomers wait (Retry-After), seated users joining again do not")
    func perSession() async throws {
        let server = try await HubTestServer.start(configure: {
            $0.sessionJoinBurst = 2
            $0.sessionJoinsPerSecond = 1.0 / 60
        })
        let session = try await server.hostSession()
        var seated: [String] = []
        for _ in 0..<2 {
            let (token, _) = try await server.guest()
            #expect(try await server.call("POST", "/sessions/\(session.code)/join", token: token).status == 200)
            seated.append(token)
        }
        let (late, _) = try await server.guest()
        let limited = try await server.call("POST", "/sessions/\(session.code)/join", token: late)
        #expect(limited.status == 429 && errorCode(limited.body) == "too_many_attempts")
        #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1)
        #expect(try await server.call("POST", "/sessions/\(session.code)/join", token: seated[0]).status == 200)
        try await server.stop()
    }

    /// A phone: guest, display name, join, socket, `hello`; true once welcomed.
    static func joinAndSayHello(_ server: HubTestServer, code: String, name: String) async throws -> Bool {
        let (token, user) = try await server.guest()
        _ = try await server.call("POST", "/users/profile", token: token, json: #"{"displayName":"\#(name)"}"#)
        let join = try await server.call("POST", "/sessions/\(code)/join", token: token)
        guard join.status == 200 else { return false }
        let socket = try await TestWebSocketClient.connect(
            port: server.port, path: "/sessions/\(code)/player/\(user)?token=\(token)")
        try await socket.send(#"{"type":"hello"}"#)
        let welcomed = await socket.next(type: "welcome") != nil
        return welcomed
    }
}

/// The test server handed to the phones' tasks (it is only read from them).
private struct Venue: @unchecked Sendable {
    let server: HubTestServer
}
