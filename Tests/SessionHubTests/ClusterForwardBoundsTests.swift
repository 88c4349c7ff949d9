import Foundation
import Testing
@testable import SessionHub

/// What one node holds for calls it forwards to a session's owner (docs/SCALING.md, "Several nodes"): each call at
/// most `forwardTimeout`, its connection closed then, and at most `maxForwards` open at once. The owner is a
/// `HangingServer` (an owner that hangs): node A's URL in the store is the listener's, node B forwards there.
@Suite("Several nodes: forwarded calls are bounded", .serialized,
       .enabled(if: PostgresTestServer.unavailable == nil, Comment(rawValue: PostgresTestServer.unavailable ?? "")))
struct ClusterForwardBoundsTests {
    /// Node A (its URL: the silent owner's) with a session; node B, which forwards calls about it.
    static func nodes(owner: HangingServer, timeout: Duration, maxForwards: Int = 256) async throws
        -> (owner: HubTestServer, asked: HubTestServer, code: String)
    {
        let database = try PostgresTestServer.shared.get().makeDatabase()
        let a = try await HubTestServer.start { configuration in
            configuration.database = database
            configuration.cluster.nodeURL = "http://127.0.0.1:\(owner.port)"
        }
        let session = try await a.hostSession()
        let b = try await HubTestServer.start { configuration in
            configuration.database = database
            configuration.cluster.nodeURL = "http://127.0.0.1:1"
            configuration.cluster.forwardTimeout = timeout
            configuration.cluster.maxForwards = maxForwards
        }
        return (a, b, session.code)
    }

    /// The `error.code` of an error body.
    static func errorCode(_ body: [String: Any]) -> String? {
        (body["error"] as? [String: Any])?["code"] as? String
    }

    /// Waits (at most 2 s) until the silent owner holds no connection.
    static func drained(_ owner: HangingServer) async throws -> HangingServer.Counts {
        for _ in 0..<100 where owner.counts.open > 0 { try await Task.sleep(for: .milliseconds(20)) }
        return owner.counts
    }

    @Test("an owner that never answers: 503 session_unavailable after forwardTimeout, and its connection is closed")
    func silentOwner() async throws {
        let owner = try await HangingServer.start()
        let (a, b, code) = try await Self.nodes(owner: owner, timeout: .milliseconds(400))
        let start = ContinuousClock.now
        let answer = try await b.call("GET", "/sessions/\(code)")
        let took = ContinuousClock.now - start
        #expect(answer.status == 503)
        #expect(Self.errorCode(answer.body) == "session_unavailable")
        #expect(answer.headers["retry-after"] == "1")
        #expect(took >= .milliseconds(400) && took < .seconds(10), "answered at its 0.4 s timeout, not the default 10 s: \(took)")
        let counts = try await Self.drained(owner)
        #expect(counts.accepted == 1, "the call reached the owner")
        #expect(counts.open == 0, "the forwarding node closed its connection at the timeout")
        #expect(b.hub.cluster?.openForwards == 0)
        try await b.stop()
        try await a.stop()
        try await owner.stop()
    }

    @Test("calls beyond maxForwards get 503 server_busy at once; the owner never holds more than maxForwards")
    func capped() async throws {
        let owner = try await HangingServer.start()
        let (a, b, code) = try await Self.nodes(owner: owner, timeout: .milliseconds(1500), maxForwards: 2)
        let port = b.port
        let codes = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<5 {
                group.addTask {
                    let answer = try await TestHTTPClient.request(.GET, port: port, path: "/sessions/\(code)")
                    #expect(answer.status == 503)
                    #expect(answer.headers.first(name: "Retry-After") == "1")
                    return Self.errorCode(jsonObject(answer.body)) ?? ""
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(codes.sorted() == ["server_busy", "server_busy", "server_busy", "session_unavailable",
                                   "session_unavailable"])
        var counts = try await Self.drained(owner)
        #expect(counts == HangingServer.Counts(open: 0, most: 2, accepted: 2))
        #expect(b.hub.cluster?.openForwards == 0, "every slot given back")
        // The slots are free again: the next call is forwarded.
        let again = try await b.call("GET", "/sessions/\(code)")
        #expect(Self.errorCode(again.body) == "session_unavailable")
        counts = try await Self.drained(owner)
        #expect(counts.accepted == 3)
        try await b.stop()
        try await a.stop()
        try await owner.stop()
    }
}
