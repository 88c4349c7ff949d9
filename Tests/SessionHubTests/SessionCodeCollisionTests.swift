import Foundation
@testable import PongWire
import Synchronization
import Testing
@testable import SessionHub

/// A new session's code taken in the store by another node (docs/SCALING.md: the store's key is the only judge
/// across nodes): `POST /sessions` draws again, up to 4 codes in all, and no code it drew stays reserved after an
/// error. The codes are scripted (`HubConfiguration.drawCode`); the "other node's" sessions are written to the
/// store directly, so this node does not know them.
struct SessionCodeCollisionTests {
    /// A server whose codes come from `script`, in order (nil once it is spent), with `taken` already stored by
    /// another host; live sessions per user limited to `limit`.
    static func server(script: [String], taken: [String], limit: Int = 5) async throws -> HubTestServer {
        let codes = Mutex(script.compactMap(SessionCode.init(userInput:)))
        let server = try await HubTestServer.start { configuration in
            configuration.drawCode = { codes.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
            configuration.quotas.maxLiveSessionsPerUser = limit
        }
        let other = UserID("other-node-host")
        try server.hub.store.createUser(.guest(id: other, name: "Other", createdAt: Date()))
        for text in taken {
            try server.hub.store.createSession(StoredSession(
                code: try #require(SessionCode(userInput: text)), hostUserId: other,
                game: GameSettings(mode: .rally, pointsToWin: .eleven), createdAt: Date()))
        }
        return server
    }

    static let create = #"{"mode":"rally","pointsToWin":11}"#

    @Test("a code another node stored first: the session gets the next code drawn, the taken one is not reserved")
    func drawnAgain() async throws {
        let server = try await Self.server(script: ["TAKEN2", "FREE22"], taken: ["TAKEN2"])
        let (token, userId) = try await server.guest()
        let user = UserID(userId)
        let created = try await server.call("POST", "/sessions", token: token, json: Self.create)
        #expect(created.status == 201)
        #expect(created.body["code"] as? String == "FREE22")
        let free = try #require(SessionCode(userInput: "FREE22"))
        let taken = try #require(SessionCode(userInput: "TAKEN2"))
        #expect(server.hub.quotas.sessions(of: user) == [free])
        #expect(server.hub.quotas.userSessions.withLockedValue { $0.hosted(by: user) } == 1)
        #expect(server.hub.quotas.userSessions.withLockedValue { $0.isLive(taken) } == false)
        #expect(server.hub.session(free) != nil)
        #expect(server.hub.session(taken) == nil)
        try await server.stop()
    }

    @Test("four codes drawn, all taken: 500 internal, none of them stays reserved, the host's quota is whole")
    func allTaken() async throws {
        let taken = ["TAKEN2", "TAKEN3", "TAKEN4", "TAKEN5"]
        let server = try await Self.server(script: taken + ["FREE22"], taken: taken, limit: 1)
        let (token, userId) = try await server.guest()
        let user = UserID(userId)
        let failed = try await server.call("POST", "/sessions", token: token, json: Self.create)
        #expect(failed.status == 500)
        #expect(errorCode(failed.body) == "internal")
        #expect(server.hub.quotas.sessions(of: user).isEmpty)
        #expect(server.hub.quotas.userSessions.withLockedValue { $0.hosted(by: user) } == 0)
        for text in taken {
            let code = try #require(SessionCode(userInput: text))
            #expect(server.hub.quotas.userSessions.withLockedValue { $0.isLive(code) } == false, "\(text) released")
        }
        // A reservation left behind would use up the one live session this host may have.
        let created = try await server.call("POST", "/sessions", token: token, json: Self.create)
        #expect(created.status == 201)
        #expect(created.body["code"] as? String == "FREE22")
        try await server.stop()
    }
}
