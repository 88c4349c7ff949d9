import Foundation
import Testing
@testable import SessionHub

/// A PostgreSQL server that stops answering must not hold a caller for ever: the lease's renewal waited on a
/// statement whose server had died (an immediate shutdown) and never came back, so the node never learned the store
/// was gone and a journey write failed meanwhile was never written again (the cluster failover test's lost step).
@Suite("The store's deadlines", .timeLimit(.minutes(1)))
struct PostgresDeadlineTests {
    static func url(_ server: HangingServer) throws -> DatabaseURL {
        try DatabaseURL("postgres://pongd@127.0.0.1:\(server.port)/x?sslmode=disable")
    }

    @Test("a server that accepts and never answers the start-up: .io after the timeout, not a wait for ever")
    func startupNeverAnswered() async throws {
        let server = try await HangingServer.start()
        let started = ContinuousClock.now
        #expect(throws: StoreError.io) {
            try PostgresStore(url: try Self.url(server), logger: StoreBackend.quiet, readers: 1, writers: 1,
                              timeout: .milliseconds(300), controlTimeout: .milliseconds(300))
        }
        #expect(ContinuousClock.now - started < .seconds(5))
        try await server.stop()
    }

    @Test("a server that logs the client in and never answers a statement: .io after the timeout, connection closed")
    func statementNeverAnswered() async throws {
        let server = try await HangingServer.start(postgresStartup: true)
        let started = ContinuousClock.now
        #expect(throws: StoreError.io) {
            try PostgresStore(url: try Self.url(server), logger: StoreBackend.quiet, readers: 1, writers: 1,
                              timeout: .milliseconds(300), controlTimeout: .milliseconds(300))
        }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(try await server.drained().open == 0, "the connection that did not answer is closed")
        try await server.stop()
    }
}
