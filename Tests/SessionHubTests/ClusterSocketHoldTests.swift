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
    static func located() async throws
        -> (server: HubTestServer, database: DatabaseURL, code: SessionCode, path: String, user: UserID)
    {
        let database = try PostgresTestServer.shared.get().makeDatabase()
        let server = try await HubTestServer.start { configuration in
            configuration.database = database
            configuration.cluster.nodeURL = "http://127.0.0.1:1"
        }
        let session = try await server.hostSession()
        let player = try await server.joinGuest(named: "Ann", code: session.code)
        let code = try #require(SessionCode(userInput: session.code))
        server.hub.flushWrites()
        server.hub.forget(code)
        return (server, database, code,
                "/sessions/\(session.code)/player/\(player.userId)?token=\(player.token)", UserID(player.userId))
    }

    /// Holds `LOCK TABLE session` in a transaction on a connection of its own until `release()`.
    final class TableLock: Sendable {
        private let locked = Mutex(false)
        private let gate = DispatchSemaphore(value: 0)

        init(_ database: DatabaseURL) async throws {
            let store = try PostgresStore(url: database, logger: StoreBackend.quiet, readers: 1, writers: 1)
            Thread.detachNewThread { [self] in
                try? store.write { transaction throws(StoreError) in
                    _ = try transaction.run("LOCK TABLE session IN ACCESS EXCLUSIVE MODE")
                    self.locked.withLock { $0 = true }
                    self.gate.wait()
                }
                try? store.close()
            }
            for _ in 0..<250 where !locked.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(20)) }
            #expect(locked.withLock { $0 }, "the table lock was taken")
        }

        /// Commits the transaction: the lookup goes on (once; later calls do nothing that matters).
        func release() { gate.signal() }
    }

    /// The messages the server holds for the socket now.
    static func held(_ server: HubTestServer) -> Int {
        server.hub.locatingSockets.withLockedValue { $0.values.first?.count ?? 0 }
    }

    @Test("four messages sent while the session is located reach it in order once it is found")
    func fourHeld() async throws {
        let (server, database, code, path, user) = try await Self.located()
        let lock = try await TableLock(database)
        defer { lock.release() }
        let socket = try await TestWebSocketClient.connect(port: server.port, path: path)
        try await socket.send(#"{"type":"hello"}"#)
        for level in [10, 20, 30] { try await socket.send(#"{"type":"battery","level":\#(level),"charging":false}"#) }
        for _ in 0..<100 where Self.held(server) < 4 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(Self.held(server) == 4, "all four held while the store is locked")
        #expect(server.hub.session(code) == nil, "not located yet")
        lock.release()
        var errors: [String] = []
        while let event = await socket.next() {
            guard case .text(let text) = event else { break }
            if text.contains(#""type":"error""#) { errors.append(text) }
            if text.contains(#""type":"welcome""#) { break }
        }
        #expect(errors.isEmpty, "hello came first: \(errors)")
        let live = try #require(server.hub.session(code))
        var level: Double?
        for _ in 0..<100 where level != 30 {
            level = await withCheckedContinuation { done in
                live.read({ state in state.playerID(of: user).flatMap { state.journey(of: $0)?.battery?.level } }) {
                    done.resume(returning: $0)
                }
            }
            if level != 30 { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(level == 30, "the batteries in the order sent: the last one counts")
        #expect(Self.held(server) == 0)
        try await server.stop()
    }

    @Test("a fifth message while the session is located closes the socket with 4008; it is never attached")
    func fifthCloses() async throws {
        let (server, database, code, path, user) = try await Self.located()
        let lock = try await TableLock(database)
        defer { lock.release() }
        let socket = try await TestWebSocketClient.connect(port: server.port, path: path)
        try await socket.send(#"{"type":"hello"}"#)
        for level in [10, 20, 30, 40] {
            try await socket.send(#"{"type":"battery","level":\#(level),"charging":false}"#)
        }
        let closed = await socket.closeCode()
        #expect(closed == CloseCode.flooded.code, "closed while the store is still locked")
        #expect(server.hub.session(code) == nil)
        lock.release()
        for _ in 0..<100 where server.hub.session(code) == nil { try await Task.sleep(for: .milliseconds(20)) }
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
        for _ in 0...SessionHub.maxHeldWhileLocating { try await socket.send(#"{"type":"hello"}"#) }
        #expect(await socket.closeCode() == CloseCode.flooded.code)
        lock.release()
        server.hub.worker.sync(flags: .barrier) {}  // the lookup's block has ended
        let wait = server.hub.codeGuesses.withLockedValue { $0.wait(for: "127.0.0.1", now: .now) }
        #expect(wait == nil, "the address's one guess is left (the gone socket's unknown code spent none)")
        try await server.stop()
    }
}
