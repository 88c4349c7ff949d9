import Foundation
import Synchronization
@testable import PongWire
import Testing
@testable import SessionHub

/// Hubs on one PostgreSQL store, in one process (short leases): what the periodic check does.
@Suite("Several nodes: the periodic check", .serialized,
       .enabled(if: PostgresTestServer.unavailable == nil, Comment(rawValue: PostgresTestServer.unavailable ?? "")))
struct ClusterHubTests {
    static func configure(_ database: DatabaseURL, url: String) -> (inout HubConfiguration) -> Void {
        { configuration in
            configuration.database = database
            configuration.cluster.nodeURL = url
            configuration.cluster.leaseDuration = .milliseconds(600)
            configuration.cluster.renewInterval = .milliseconds(150)
        }
    }

    @Test("the same node started again elsewhere (its data folder) takes its sessions; the old process lets them go")
    func superseded() async throws {
        let database = try PostgresTestServer.shared.get().makeDatabase()
        let old = try await HubTestServer.start(configure: Self.configure(database, url: "http://127.0.0.1:1"))
        let session = try await old.hostSession()
        let code = try #require(SessionCode(userInput: session.code))
        #expect(old.hub.session(code) != nil)
        let new = try await HubTestServer.start(dataDirectory: old.dataDirectory,
                                                configure: Self.configure(database, url: "http://127.0.0.1:2"))
        #expect(new.hub.cluster?.id == old.hub.cluster?.id, "one data folder, one node")
        #expect(new.hub.session(code) != nil, "restored at start: its node owns it")
        try await waitUntil(within: .seconds(2)) { old.hub.session(code) == nil }
        #expect(old.hub.session(code) == nil, "the old process let it go at its next renewal")
        let lobby = try await new.call("GET", "/sessions/\(session.code)", token: session.hostToken)
        #expect(lobby.status == 200)
        try await new.stop()
        try await old.stop()
    }

    @Test("a node whose lease ran out: another adopts its sessions at its next check, without any phone asking")
    func adoptedByTheCheck() async throws {
        let database = try PostgresTestServer.shared.get().makeDatabase()
        let dead = try await HubTestServer.start(configure: Self.configure(database, url: "http://127.0.0.1:1"))
        let session = try await dead.hostSession()
        let code = try #require(SessionCode(userInput: session.code))
        let survivor = try await HubTestServer.start(configure: Self.configure(database, url: "http://127.0.0.1:2"))
        #expect(survivor.hub.session(code) == nil)
        dead.hub.cluster?.stop()  // no more renewals: as if killed
        try await waitUntil(within: .seconds(3)) { survivor.hub.session(code) != nil }
        #expect(survivor.hub.session(code) != nil, "adopted within the lease, a full healthy lease and a check")
        try await survivor.stop()
        try await dead.stop()
    }
}

/// Restores of one code racing (a phone's call and the periodic check on several nodes): one session in memory.
struct RacingRestoreTests {
    @Test("eight restores of one stored session at once: every one gets the same session, which is the hub's")
    func racingRestores() async throws {
        let server = try await HubTestServer.start()
        let session = try await server.hostSession()
        let code = try #require(SessionCode(userInput: session.code))
        server.hub.forget(code)  // out of memory, still live in the store: what a node about to adopt it sees
        let hub = server.hub
        let restored = Mutex<[ObjectIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let live = try? hub.restoreSession(code) { restored.withLock { $0.append(ObjectIdentifier(live)) } }
        }
        let ids = restored.withLock { $0 }
        #expect(ids.count == 8)
        #expect(Set(ids).count == 1)
        #expect(ids.first == server.hub.session(code).map(ObjectIdentifier.init))
        try await server.stop()
    }
}
