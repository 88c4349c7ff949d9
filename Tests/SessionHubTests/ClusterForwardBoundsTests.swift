import Foundation
import PongClient
import Testing
@testable import SessionHub

/// What one node holds for calls it forwards to a session's owner (docs/SCALING.md, "Several nodes"): each call at
/// most `forwardTimeout`, its connection closed then, and at most `maxForwards` open at once. The owner is a
/// `HangingServer` (an owner that hangs): node A's URL in the store is the listener's, node B forwards there.
@Suite("Several nodes: forwarded calls are bounded", .serialized,
       .enabled(if: PostgresTestServer.unavailable == nil, Comment(rawValue: PostgresTestServer.unavailable ?? "")))
struct ClusterForwardBoundsTests {
    /// Node A (its URL: the silent owner's) with a session; node B, which forwards calls about it.
    static func nodes(owner: HangingServer, timeout: Duration, maxForwards: Int = 256, perAddress: Int = 64)
        async throws
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
            configuration.cluster.maxForwardsPerAddress = perAddress
        }
        return (a, b, session.code)
    }

    /// The `error.code` of an error body.
    static func errorCode(_ body: [String: Any]) -> String? {
        (body["error"] as? [String: Any])?["code"] as? String
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
        let counts = try await owner.drained()
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
        var counts = try await owner.drained()
        #expect(counts == HangingServer.Counts(open: 0, most: 2, accepted: 2))
        #expect(b.hub.cluster?.openForwards == 0, "every slot given back")
        // The slots are free again: the next call is forwarded.
        let again = try await b.call("GET", "/sessions/\(code)")
        #expect(Self.errorCode(again.body) == "session_unavailable")
        counts = try await owner.drained()
        #expect(counts.accepted == 3)
        try await b.stop()
        try await a.stop()
        try await owner.stop()
    }

    @Test("one client address holds at most maxForwardsPerAddress forwarded calls: beyond them 503 server_busy at once, while another address is still forwarded")
    func perAddressShare() async throws {
        let owner = try await HangingServer.start()
        let (a, b, code) = try await Self.nodes(owner: owner, timeout: .seconds(30), maxForwards: 4, perAddress: 2)
        let port = b.port
        @Sendable func call(from address: String) async throws -> (status: Int, code: String?, retry: String?) {
            let reply = try await HTTPClient.send("GET", "/sessions/\(code)", port: port, from: address)
            return (reply.status, Self.errorCode(jsonObject(reply.text)), reply.headers.first(name: "Retry-After"))
        }
        async let first = call(from: "127.0.0.1")
        async let second = call(from: "127.0.0.1")
        #expect(try await owner.opened(2).open == 2, "the address's two calls reached the owner")
        let third = try await call(from: "127.0.0.1")
        #expect(third.status == 503 && third.code == "server_busy" && third.retry == "1", "its share is taken")
        async let other = call(from: "127.0.0.2")
        #expect(try await owner.opened(3).open == 3, "another address is still forwarded")
        owner.hangUp()
        for answer in try await [first, second, other] {
            #expect(answer.status == 503 && answer.code == "session_unavailable")
        }
        #expect(try await owner.drained() == HangingServer.Counts(open: 0, most: 3, accepted: 3))
        #expect(b.hub.cluster?.openForwards == 0, "every slot given back")
        try await b.stop()
        try await a.stop()
        try await owner.stop()
    }
}

@Suite("ForwardSlots: forwarded calls in all and per client address")
struct ForwardSlotsTests {
    @Test("a full address is refused while others are served; a full node refuses everyone; slots come back")
    func shares() {
        var slots = ForwardSlots(total: 3, perAddress: 2)
        #expect([slots.take(for: "a"), slots.take(for: "a"), slots.take(for: "a")] == [true, true, false])
        let b = slots.take(for: "b")
        let c = slots.take(for: "c")
        #expect(b && !c, "all three slots taken")
        slots.giveBack(for: "a")
        let again = slots.take(for: "c")
        #expect(again)
        slots.giveBack(for: "z")  // never taken: nothing changes
        #expect(slots.open == 3 && slots.byAddress == ["a": 1, "b": 1, "c": 1])
    }
}
