import Foundation
@testable import PongWire
import Testing
@testable import SessionHub

/// Nothing acknowledged is lost and nothing ended comes back: each change is in the store (read through a second
/// connection, as the next process after a kill -9 would) the moment its acknowledgment arrives.
@Suite("Durability: written before acknowledged", .timeLimit(.minutes(1)))
struct DurabilityTests {
    /// What a process started on `folder` right now would read.
    private func stored(_ folder: String) throws -> SessionStore { try SessionStore(dataDirectory: folder) }

    @Test("a seat left with `leave` is marked left before its socket closes; after a restart it is gone for good")
    func leftSeat() async throws {
        let server = try await HubTestServer.start()
        let session = try await server.hostSession()
        let (token, user) = try await server.joinGuest(named: "Ari", code: session.code)
        let socket = try await TestWebSocketClient.connect(
            port: server.port, path: "/sessions/\(session.code)/player/\(user)?token=\(token)")
        try await socket.send(#"{"type":"hello"}"#)
        let welcome = jsonObject(await socket.next(type: "welcome"))
        let player = PlayerID(try #require(welcome["playerId"] as? String))
        let resumeToken = try #require(welcome["resumeToken"] as? String)
        try await socket.send(#"{"type":"leave"}"#)
        #expect(await socket.closeCode() == CloseCode.left.code)
        #expect(try stored(server.dataDirectory).membership(playerId: player)?.leftAt != nil,
                "the seat was still held in the store when its close arrived")
        try await server.stop()

        let second = try await HubTestServer.start(dataDirectory: server.dataDirectory)
        let lobby = try await second.call("GET", "/sessions/\(session.code)", token: session.hostToken)
        #expect((lobby.body["players"] as? [[String: Any]])?.isEmpty == true, "the left seat came back: \(lobby.body)")
        let resumed = try await TestWebSocketClient.connect(
            port: second.port, path: "/sessions/\(session.code)/player/\(user)?token=\(token)")
        // The socket of a user with no seat is refused as it opens (error, then 4003): the hello may not get out.
        try? await resumed.send(#"{"type":"hello","resumeToken":"\#(resumeToken)"}"#)
        let answer = jsonObject(await resumed.next { $0.contains(#""type":"welcome""#) || $0.contains(#""type":"error""#) })
        #expect(answer["type"] as? String == "error", "the old resume token resumed a left seat: \(answer)")
        try await second.stop()
    }

    @Test("a join whose seat the store cannot take is refused (500 internal) and seats nobody; the next one works")
    func seatNotStoredNotAcknowledged() async throws {
        let server = try await HubTestServer.start()
        let session = try await server.hostSession()
        let (token, _) = try await server.guest()
        _ = try await server.call("POST", "/users/profile", token: token, json: #"{"displayName":"Ari"}"#)
        let store = try stored(server.dataDirectory)
        try store.execute(rawSQL: """
            CREATE TRIGGER refuse_seats BEFORE INSERT ON membership BEGIN SELECT RAISE(ABORT, 'disk full'); END
            """)
        let refused = try await server.call("POST", "/sessions/\(session.code)/join", token: token)
        #expect(refused.status == 500 && errorCode(refused.body) == "internal", "\(refused)")
        let lobby = try await server.call("GET", "/sessions/\(session.code)", token: session.hostToken)
        #expect((lobby.body["players"] as? [[String: Any]])?.isEmpty == true, "a seat not in the store: \(lobby.body)")
        try store.execute(rawSQL: "DROP TRIGGER refuse_seats")
        let joined = try await server.call("POST", "/sessions/\(session.code)/join", token: token)
        #expect(joined.status == 200)
        let player = PlayerID(try #require(joined.body["playerId"] as? String))
        #expect(try store.membership(playerId: player) != nil)
        try await server.stop()
    }

    @Test("/end's 200 arrives after the end is stored (20 sessions in a row)")
    func endStoredBeforeReply() async throws {
        let server = try await HubTestServer.start()
        let store = try stored(server.dataDirectory)
        for _ in 0..<20 {
            let session = try await server.hostSession()
            let ended = try await server.call("POST", "/sessions/\(session.code)/end", token: session.token)
            #expect(ended.status == 200)
            let code = try #require(SessionCode(userInput: session.code))
            #expect(try store.session(code: code)?.state == .ended, "a kill -9 now would bring \(code) back")
        }
        try await server.stop()
    }

    @Test("a session in use for longer than the idle timeout survives a restart (a test clock steps the time)")
    func activityKeepsASessionLive() async throws {
        var configuration = SessionState.Configuration()
        configuration.idleTimeout = .seconds(4)
        let clock = TestWallClock()
        let wallClock: @Sendable () -> Date = { clock.now }
        let server = try await HubTestServer.start(session: configuration) { $0.wallClock = wallClock }
        let session = try await server.hostSession()
        let (token, user) = try await server.joinGuest(named: "Ari", code: session.code)
        let socket = try await TestWebSocketClient.connect(
            port: server.port, path: "/sessions/\(session.code)/player/\(user)?token=\(token)")
        try await socket.send(#"{"type":"hello"}"#)
        _ = await socket.next(type: "welcome")
        for _ in 0..<11 {  // 5.5 s of use, a message every 0.5 s: past the idle timeout since the session was created
            clock.advance(by: 0.5)
            // `ready` before the test step: answered with out_of_order once the session's queue has handled it.
            try await socket.send(#"{"type":"ready"}"#)
            _ = await socket.next(where: { jsonObject($0)["code"] as? String == "out_of_order" })
        }
        try await server.stop()

        let second = try await HubTestServer.start(dataDirectory: server.dataDirectory, session: configuration) {
            $0.wallClock = wallClock
        }
        let lobby = try await second.call("GET", "/sessions/\(session.code)", token: token)
        #expect(lobby.status == 200, "a session in use was ended as idle at start-up")
        #expect(lobby.body["state"] as? String == "waiting")
        try await second.stop()

        // The same clock 4 s on, without use: idle, ended at the next start-up.
        clock.advance(by: 4.5)
        let third = try await HubTestServer.start(dataDirectory: server.dataDirectory, session: configuration) {
            $0.wallClock = wallClock
        }
        let ended = try await third.call("GET", "/sessions/\(session.code)")
        #expect(ended.status == 404, "an idle session was not expired at start-up")
        try await third.stop()
    }
}

/// A wall clock a test steps by hand.
final class TestWallClock: @unchecked Sendable {
    private let lock = NSLock()
    private var date = Date()

    /// The clock's time.
    var now: Date { lock.withLock { date } }

    /// Moves the clock on by `seconds`.
    func advance(by seconds: TimeInterval) { lock.withLock { date += seconds } }
}
