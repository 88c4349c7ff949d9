import Dispatch
import Foundation
import PongWire
import Synchronization
import Testing
@testable import SessionHub

/// A socket whose session is being located in the store (several nodes) holds at most
/// `SessionHub.maxHeldWhileLocating` text messages (docs/PROTOCOL.md, "Several nodes"). The session is in the store,
/// owned by this node, but not in memory (as after a handover to it); the test holds an exclusive lock on the
/// `session` table, so the lookup waits until the test lets it go.
@Suite("Several nodes: what a socket sends while its session is located", .serialized,
       .enabled(if: PostgresTestServer.unavailable == nil, Comment(rawValue: PostgresTestServer.unavailable ?? "")))
struct ClusterSocketHoldTests {
    /// A node on its own store with a session and a seated player, the session out of memory.
    static func located(maxSocketsPerUser: Int = 8, helloTimeout: Duration = .seconds(10)) async throws
        -> (server: HubTestServer, database: DatabaseURL, code: SessionCode, path: String, user: UserID)
    {
        let database = try PostgresTestServer.shared.get().makeDatabase()
        let server = try await HubTestServer.start(maxSocketsPerUser: maxSocketsPerUser) { configuration in
            configuration.session.helloTimeout = helloTimeout
            configuration.database = database
            configuration.cluster.nodeURL = "http://127.0.0.1:1"
        }
        let session = try await server.hostSession()
        let player = try await server.joinGuest(named: "Ann", code: session.code)
        let code = try #require(SessionCode(userInput: session.code))
        server.hub.flushWrites()
        server.hub.forget(code)
        return (server, database, code,
                "/sessions/\(code.value)/player/\(player.userId)?token=\(player.token)", UserID(player.userId))
    }

    /// Holds `LOCK TABLE session` in a transaction on a connection of its own until `release()`, or 60 s at most:
    /// a test that waits for a close the server should send while the lock is held does not hang without it.
    final class TableLock: Sendable {
        private let locked = Mutex(false)
        private let gate = DispatchSemaphore(value: 0)

        init(_ database: DatabaseURL) async throws {
            let store = try PostgresStore(url: database, logger: StoreBackend.quiet, readers: 1, writers: 1)
            Thread.detachNewThread { [self] in
                try? store.write { transaction throws(StoreError) in
                    _ = try transaction.run("LOCK TABLE session IN ACCESS EXCLUSIVE MODE")
                    self.locked.withLock { $0 = true }
                    _ = self.gate.wait(timeout: .now() + 60)
                }
                try? store.close()
            }
            try await waitUntil(within: .seconds(5)) { locked.withLock({ $0 }) }
            #expect(locked.withLock { $0 }, "the table lock was taken")
        }

        /// Commits the transaction: the lookup goes on (once; later calls do nothing that matters).
        func release() { gate.signal() }
    }

    /// The messages the server holds for the socket now.
    static func held(_ server: HubTestServer) -> Int {
        server.hub.locatingSockets.withLockedValue { $0.values.first?.held.count ?? 0 }
    }

    /// The battery level `user`'s journey holds, read on the session's queue until it is `expected` (2 s at most).
    static func battery(of user: UserID, in live: LiveSession, awaiting expected: Double) async throws -> Double? {
        var level: Double?
        for _ in 0..<100 where level != expected {
            level = await live.read { state in state.playerID(of: user).flatMap { state.journey(of: $0)?.battery?.level } }
            if level != expected { try await Task.sleep(for: .milliseconds(20)) }
        }
        return level
    }

    /// Sends `hello`, then batteries at 10, 20, 30, … until `SessionHub.maxHeldWhileLocating` messages and `beyond`
    /// more are sent; returns the last battery level sent.
    @discardableResult
    static func sendHelloAndBatteries(_ socket: TestWebSocketClient, beyondHeld beyond: Int = 0) async throws -> Double {
        try await socket.send(#"{"type":"hello"}"#)
        let levels = (1..<(SessionHub.maxHeldWhileLocating + beyond)).map { $0 * 10 }
        for level in levels { try await socket.send(#"{"type":"battery","level":\#(level),"charging":false}"#) }
        return Double(levels.last ?? 0)
    }

    /// The sockets counted for `user` now.
    static func counted(_ server: HubTestServer, _ user: UserID) -> Int {
        server.hub.userSockets.withLockedValue { $0.byUser[user] ?? 0 }
    }

    @Test("the messages sent while the session is located reach it in order once it is found")
    func fourHeld() async throws {
        let (server, database, code, path, user) = try await Self.located()
        let lock = try await TableLock(database)
        defer { lock.release() }
        let socket = try await TestWebSocketClient.connect(port: server.port, path: path)
        let last = try await Self.sendHelloAndBatteries(socket)
        let most = SessionHub.maxHeldWhileLocating
        try await waitUntil(within: .seconds(2)) { Self.held(server) >= most }
        #expect(Self.held(server) == most, "all held while the store is locked")
        #expect(server.hub.session(code) == nil, "not located yet")
        lock.release()
        var errors: [String] = []
        while let event = await socket.next() {
            guard case .text(let text) = event else { break }
            if text.contains(#""type":"error""#) { errors.append(text) }
            if text.contains(#""type":"welcome""#) { break }
        }
        #expect(errors.isEmpty, "hello came first: \(errors)")
        let level = try await Self.battery(of: user, in: try #require(server.hub.session(code)), awaiting: last)
        #expect(level == last, "the batteries in the order sent: the last one counts")
        #expect(Self.held(server) == 0)
        try await server.stop()
    }

    @Test("one message more than are held while the session is located closes the socket with 4008; it is never attached")
    func fifthCloses() async throws {
        let (server, database, code, path, user) = try await Self.located()
        let lock = try await TableLock(database)
        defer { lock.release() }
        let socket = try await TestWebSocketClient.connect(port: server.port, path: path)
        try await Self.sendHelloAndBatteries(socket, beyondHeld: 1)
        let closed = await socket.closeCode()
        #expect(closed == CloseCode.flooded.code, "closed while the store is still locked")
        #expect(server.hub.session(code) == nil)
        lock.release()
        try await waitUntil(within: .seconds(2)) { server.hub.session(code) != nil }
        #expect(server.hub.session(code) != nil, "the lookup went on and restored the session")
        server.hub.worker.sync(flags: .barrier) {}  // the lookup's block has ended
        #expect(server.hub.userSockets.withLockedValue { $0.byUser[user] } == nil, "no socket counted for the user")
        #expect(Self.held(server) == 0)
        try await server.stop()
    }

    @Test("a socket closed with 4008 while an unknown code is looked up is answered no more: no code guess spent")
    func closedSocketSpendsNoGuess() async throws {
        let database = try PostgresTestServer.shared.get().makeDatabase()
        let server = try await HubTestServer.start { configuration in
            configuration.database = database
            configuration.cluster.nodeURL = "http://127.0.0.1:1"
            configuration.codeGuessBurst = 1
            configuration.codeGuessesPerSecond = 0.001
        }
        let session = try await server.hostSession()
        let player = try await server.joinGuest(named: "Ann", code: session.code)
        var random = SystemRandomNumberGenerator()
        let taken = try #require(SessionCode(userInput: session.code))
        let unknown = try #require(SessionCode.generate(using: &random, avoiding: [taken]))
        let lock = try await TableLock(database)
        defer { lock.release() }
        let socket = try await TestWebSocketClient.connect(
            port: server.port, path: "/sessions/\(unknown)/player/\(player.userId)?token=\(player.token)")
        try await Self.sendHelloAndBatteries(socket, beyondHeld: 1)
        #expect(await socket.closeCode() == CloseCode.flooded.code)
        lock.release()
        server.hub.worker.sync(flags: .barrier) {}  // the lookup's block has ended
        let wait = server.hub.codeGuesses.withLockedValue { $0.wait(for: "127.0.0.1", now: .now) }
        #expect(wait == nil, "the address's one guess is left (the gone socket's unknown code spent none)")
        try await server.stop()
    }

    @Test("a socket waiting for its session counts against its user's sockets: one over the cap is refused at once (too_many_connections, 4008)")
    func cappedWhileLocated() async throws {
        let (server, database, code, path, user) = try await Self.located(maxSocketsPerUser: 2)
        let lock = try await TableLock(database)
        defer { lock.release() }
        let first = try await TestWebSocketClient.connect(port: server.port, path: path)
        let second = try await TestWebSocketClient.connect(port: server.port, path: path)
        try await waitUntil(within: .seconds(2)) { Self.counted(server, user) >= 2 }
        #expect(Self.counted(server, user) == 2, "both counted while their session is located")
        let third = try await TestWebSocketClient.connect(port: server.port, path: path)
        #expect(await third.next(type: "error")?.contains("too_many_connections") == true)
        #expect(await third.closeCode() == CloseCode.tooManySockets.code)
        #expect(server.hub.session(code) == nil, "refused while the store is still locked, not once it is attached")
        lock.release()
        try await waitUntil(within: .seconds(2)) { server.hub.session(code) != nil }
        server.hub.worker.sync(flags: .barrier) {}  // the lookups' blocks have ended: both sockets attached
        #expect(Self.counted(server, user) == 2, "the two attached, each counted once")
        _ = (first, second)
        try await server.stop()
    }

    @Test("a socket still waiting for its session at the hello deadline is closed with 4005; its count is given back")
    func helloDeadlineWhileLocated() async throws {
        let (server, database, code, path, user) = try await Self.located(helloTimeout: .milliseconds(300))
        let lock = try await TableLock(database)
        defer { lock.release() }
        let start = ContinuousClock.now
        let socket = try await TestWebSocketClient.connect(port: server.port, path: path)
        #expect(await socket.closeCode() == CloseCode.helloTimeout.code)
        let took = ContinuousClock.now - start
        #expect(server.hub.session(code) == nil, "closed while the store is still locked: \(took)")
        #expect(took >= .milliseconds(300))
        #expect(Self.counted(server, user) == 0, "its count given back at the close")
        #expect(server.hub.locatingSockets.withLockedValue { $0.isEmpty })
        lock.release()
        try await waitUntil(within: .seconds(2)) { server.hub.session(code) != nil }
        server.hub.worker.sync(flags: .barrier) {}  // the lookup's block has ended
        #expect(server.hub.session(code) != nil, "the lookup went on and restored the session")
        #expect(Self.counted(server, user) == 0, "never attached")
        try await server.stop()
    }

    @Test("a socket whose session is not found gives its count back with its refusal (4000)")
    func unknownGivesCountBack() async throws {
        let (server, _, code, path, user) = try await Self.located()
        var random = SystemRandomNumberGenerator()
        let unknown = try #require(SessionCode.generate(using: &random, avoiding: [code]))
        let socket = try await TestWebSocketClient.connect(
            port: server.port, path: path.replacingOccurrences(of: code.value, with: unknown.value))
        #expect(await socket.closeCode() == CloseCode.sessionEnded.code)
        server.hub.worker.sync(flags: .barrier) {}  // the lookup's block has ended
        #expect(Self.counted(server, user) == 0)
        try await server.stop()
    }

    @Test("messages held while the session is located and those sent as it is found reach it in the order sent")
    func heldThenLater() async throws {
        let (server, database, code, path, user) = try await Self.located()
        let lock = try await TableLock(database)
        defer { lock.release() }
        let socket = try await TestWebSocketClient.connect(port: server.port, path: path)
        try await socket.send(#"{"type":"hello"}"#)
        try await socket.send(#"{"type":"battery","level":10,"charging":false}"#)
        try await waitUntil(within: .seconds(2)) { Self.held(server) >= 2 }
        #expect(Self.held(server) == 2, "hello and the first battery held while the store is locked")
        lock.release()
        // Sent while the lookup ends: each one either held (`SessionHub.maxHeldWhileLocating` in all at most) or
        // after the attach.
        for level in [20, 30] { try await socket.send(#"{"type":"battery","level":\#(level),"charging":false}"#) }
        let first = await socket.next(where: { $0.contains(#""type":"welcome""#) || $0.contains(#""type":"error""#) })
        #expect(first?.contains(#""type":"welcome""#) == true, "hello came first: \(first ?? "closed")")
        let level = try await Self.battery(of: user, in: try #require(server.hub.session(code)), awaiting: 30)
        #expect(level == 30, "the batteries in the order sent: the last one counts")
        try await server.stop()
    }
}
