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

    /// A `GET /sessions/{code}` to node B from `address`: its status, error code and `Retry-After`.
    static func lobby(_ code: String, port: Int, from address: String = "127.0.0.1") async throws
        -> (status: Int, code: String?, retryAfter: String?)
    {
        let reply = try await HTTPClient.send("GET", "/sessions/\(code)", port: port, from: address)
        return (reply.status, errorCode(jsonObject(reply.text)), reply.headers.first(name: "Retry-After"))
    }

    @Test("an owner that never answers: 503 session_unavailable after forwardTimeout, and its connection is closed")
    func silentOwner() async throws {
        let owner = try await HangingServer.start()
        let (a, b, code) = try await Self.nodes(owner: owner, timeout: .milliseconds(400))
        let start = ContinuousClock.now
        let answer = try await b.call("GET", "/sessions/\(code)")
        let took = ContinuousClock.now - start
        #expect(answer.status == 503)
        #expect(errorCode(answer.body) == "session_unavailable")
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
        let (a, b, code) = try await Self.nodes(owner: owner, timeout: .seconds(30), maxForwards: 2)
        let port = b.port
        async let first = Self.lobby(code, port: port)
        async let second = Self.lobby(code, port: port)
        #expect(try await owner.opened(2).open == 2, "both slots taken: the owner holds their calls")
        for _ in 0..<3 {
            let busy = try await Self.lobby(code, port: port)
            #expect(busy.status == 503 && busy.code == "server_busy" && busy.retryAfter == "1")
        }
        owner.hangUp()
        for answer in try await [first, second] {
            #expect(answer.status == 503 && answer.code == "session_unavailable" && answer.retryAfter == "1")
        }
        #expect(try await owner.drained() == HangingServer.Counts(open: 0, most: 2, accepted: 2))
        #expect(b.hub.cluster?.openForwards == 0, "every slot given back")
        // The slots are free again: the next call is forwarded.
        async let again = Self.lobby(code, port: port)
        #expect(try await owner.opened(1).accepted == 3)
        owner.hangUp()
        #expect(try await again.code == "session_unavailable")
        try await b.stop()
        try await a.stop()
        try await owner.stop()
    }

    @Test("one client address holds at most maxForwardsPerAddress forwarded calls: beyond them 503 server_busy at once, while another address is still forwarded")
    func perAddressShare() async throws {
        let owner = try await HangingServer.start()
        let (a, b, code) = try await Self.nodes(owner: owner, timeout: .seconds(30), maxForwards: 4, perAddress: 2)
        let port = b.port
        async let first = Self.lobby(code, port: port)
        async let second = Self.lobby(code, port: port)
        #expect(try await owner.opened(2).open == 2, "the address's two calls reached the owner")
        let third = try await Self.lobby(code, port: port)
        #expect(third.status == 503 && third.code == "server_busy" && third.retryAfter == "1", "its share is taken")
        async let other = Self.lobby(code, port: port, from: "127.0.0.2")
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
