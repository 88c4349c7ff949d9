import Foundation
import Testing
@testable import SessionHub

/// Session codes cannot be enumerated (issue 12, item 2): failed lookups are budgeted per client address on every
/// path that can tell a live code from a dead one, "not yours" looks like "no such session", and the lobby shows
/// strangers no names. End to end against a real server; each test fails without its part of the fix.
@Suite("Code guessing", .serialized)
struct CodeGuessingTests {
    /// A well-formed code that is (almost surely) not live: `ZZ` + three characters from `index` + `Z`.
    static func unknownCode(_ index: Int) -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        return "ZZ" + String([alphabet[index / 1024 % 32], alphabet[index / 32 % 32], alphabet[index % 32]]) + "Z"
    }

    @Test("GET /sessions/{code} from one address: 20 unknown codes get 404, then 429 too_many_code_guesses with Retry-After, live codes included; the host still sees the lobby")
    func lobbyGuessing() async throws {
        let server = try await HubTestServer.start()
        let session = try await server.hostSession()
        var statuses: [Int] = []
        for index in 0..<20 { statuses.append(try await server.call("GET", "/sessions/\(Self.unknownCode(index))").status) }
        #expect(statuses == Array(repeating: 404, count: 20))
        let limited = try await server.call("GET", "/sessions/\(Self.unknownCode(20))")
        #expect(limited.status == 429 && errorCode(limited.body) == "too_many_code_guesses")
        #expect((1...3).contains(Int(limited.headers["retry-after"] ?? "") ?? 0))
        let live = try await server.call("GET", "/sessions/\(session.code)")
        #expect(live.status == 429, "a spent budget refuses live codes too, or 429 would mean 'unknown'")
        let host = try await server.call("GET", "/sessions/\(session.code)", token: session.hostToken)
        #expect(host.status == 200 && host.body["players"] != nil)
        try await server.stop()
    }

    @Test("one budget for every path: join, lobby, start, end, streams/start, player and dashboard sockets")
    func everyPathShares() async throws {
        let server = try await HubTestServer.start(configure: {
            $0.codeGuessBurst = 7
            $0.codeGuessesPerSecond = 1.0 / 600
        })
        let (token, user) = try await server.guest()
        let stream = #"{"video":null,"audio":{"codec":"opus","sampleRate":48000,"channels":1}"#
        func http(_ index: Int) async throws -> [(Int, String?)] {
            let code = Self.unknownCode(index)
            var answers: [(Int, String?)] = []
            for (method, path, json) in [
                ("POST", "/sessions/\(code)/join", nil), ("GET", "/sessions/\(code)", nil),
                ("POST", "/sessions/\(code)/start", nil), ("POST", "/sessions/\(code)/end", nil),
                ("POST", "/streams/start", #"{"sessionCode":"\#(code)","# + stream.dropFirst() + "}"),
            ] {
                let answer = try await server.call(method, path, token: token, json: json)
                answers.append((answer.status, errorCode(answer.body)))
            }
            return answers
        }
        func sockets(_ index: Int) throws -> [(String?, UInt16?)] {
            let code = Self.unknownCode(index)
            return try ["/sessions/\(code)/player/\(user)?token=\(token)", "/sessions/\(code)/dashboard?token=\(token)"]
                .map { try RawWebSocket(port: server.port, path: $0).refusal() }
        }
        let first = try await http(0)
        #expect(first.allSatisfy { $0.0 == 404 && $0.1 == "session_not_found" }, "\(first)")
        let firstSockets = try sockets(1)
        #expect(firstSockets.allSatisfy { $0.0 == "session_not_found" && $0.1 == 4000 }, "\(firstSockets)")
        let then = try await http(2)
        #expect(then.allSatisfy { $0.0 == 429 && $0.1 == "too_many_code_guesses" }, "\(then)")
        let thenSockets = try sockets(3)
        #expect(thenSockets.allSatisfy { $0.0 == "too_many_code_guesses" && $0.1 == 4129 }, "\(thenSockets)")
        try await server.stop()
    }

    @Test("not yours looks unknown: a stranger's start, end, streams/start and dashboard get 404 and close 4000, and are counted")
    func notYoursLooksUnknown() async throws {
        let server = try await HubTestServer.start(configure: {
            $0.codeGuessBurst = 4
            $0.codeGuessesPerSecond = 1.0 / 600
        })
        let session = try await server.hostSession()
        let code = session.code
        let (stranger, _) = try await server.guest()
        for verb in ["start", "end"] {
            let answer = try await server.call("POST", "/sessions/\(code)/\(verb)", token: stranger)
            #expect(answer.status == 404 && errorCode(answer.body) == "session_not_found", "\(verb)")
        }
        let stream = try await server.call("POST", "/streams/start", token: stranger, json: """
            {"sessionCode":"\(code)","video":null,"audio":{"codec":"opus","sampleRate":48000,"channels":1}}
            """)
        #expect(stream.status == 404 && errorCode(stream.body) == "session_not_found")
        let dashboard = try RawWebSocket(port: server.port, path: "/sessions/\(code)/dashboard?token=\(stranger)")
        let refusal = dashboard.refusal()
        #expect(refusal.error == "session_not_found" && refusal.close == 4000)
        // Four failures: the budget is spent, and the live code is refused like any other.
        let after = try await server.call("GET", "/sessions/\(code)")
        #expect(after.status == 429)
        // The session's own people are not held up: the host ends it.
        #expect(try await server.call("POST", "/sessions/\(code)/end", token: session.hostToken).status == 200)
        try await server.stop()
    }

    @Test("a bad token is refused before the code is looked up: 4001 whether the code is live or not")
    func tokenBeforeCode() async throws {
        let server = try await HubTestServer.start()
        let session = try await server.hostSession()
        for code in [session.code, Self.unknownCode(0)] {
            let socket = try RawWebSocket(port: server.port, path: "/sessions/\(code)/dashboard?token=forged")
            #expect(socket.refusal().close == 4001, "\(code)")
        }
        try await server.stop()
    }

    @Test("the lobby without a seated user's or the host's token: code, state, game and player count, no names, photos or ids")
    func blankedLobby() async throws {
        let server = try await HubTestServer.start()
        let session = try await server.hostSession()
        let player = try await server.joinGuest(named: "Ana", code: session.code)
        let (stranger, _) = try await server.guest()
        for token in [nil, stranger] {
            let summary = try await server.call("GET", "/sessions/\(session.code)", token: token)
            #expect(summary.status == 200)
            #expect(Set(summary.body.keys) == ["code", "displayCode", "state", "game", "playerCount"])
            #expect(summary.body["playerCount"] as? Int == 1 && summary.body["state"] as? String == "waiting")
        }
        for token in [player.token, session.hostToken, session.token] {
            let full = try await server.call("GET", "/sessions/\(session.code)", token: token)
            let players = full.body["players"] as? [[String: Any]]
            #expect(full.status == 200 && players?.first?["name"] as? String == "Ana")
        }
        #expect(try await server.call("GET", "/sessions/\(session.code)", token: "forged").status == 401)
        try await server.stop()
    }

    @Test("a spent budget does not stop the session's own people: lobby, join again, player socket and dashboard; a newcomer waits")
    func membersPassWhenSpent() async throws {
        let server = try await HubTestServer.start(configure: {
            $0.codeGuessBurst = 1
            $0.codeGuessesPerSecond = 1.0 / 600
        })
        let session = try await server.hostSession()
        let player = try await server.joinGuest(named: "Ana", code: session.code)
        #expect(try await server.call("GET", "/sessions/\(Self.unknownCode(0))").status == 404)
        #expect(try await server.call("GET", "/sessions/\(Self.unknownCode(1))").status == 429)
        #expect(try await server.call("GET", "/sessions/\(session.code)", token: player.token).status == 200)
        #expect(try await server.call("POST", "/sessions/\(session.code)/join", token: player.token).status == 200)
        let socket = try await TestWebSocketClient.connect(
            port: server.port, path: "/sessions/\(session.code)/player/\(player.userId)?token=\(player.token)")
        try await socket.send(#"{"type":"hello"}"#)
        #expect(await socket.next(type: "welcome") != nil)
        let dashboard = try await TestWebSocketClient.connect(
            port: server.port, path: "/sessions/\(session.code)/dashboard?token=\(session.hostToken)")
        #expect(await dashboard.next(type: "welcome") != nil)
        let (newcomer, _) = try await server.guest()
        let join = try await server.call("POST", "/sessions/\(session.code)/join", token: newcomer)
        #expect(join.status == 429 && errorCode(join.body) == "too_many_code_guesses")
        try await server.stop()
    }
}
