import Foundation
import Synchronization
@testable import PongWire
import Testing
@testable import SessionHub

/// `SessionOwnershipStore` on PostgreSQL: node leases on the database's clock, owners, adoption (never twice),
/// handover and the shared token key (docs/SCALING.md).
@Suite("Store: sessions owned by nodes (PostgreSQL)", .enabled(if: PostgresTestServer.unavailable == nil,
                                                                 Comment(rawValue: PostgresTestServer.unavailable ?? "")))
struct OwnershipStoreTests {
    typealias F = StoreFixture
    static let a = "http://127.0.0.1:9001", b = "http://127.0.0.1:9002"

    /// Two nodes' stores on one fresh schema, each creating sessions it owns.
    func nodes() throws -> (PostgresStore, PostgresStore) {
        let url = try PostgresTestServer.shared.get().makeSchema()
        return (try PostgresStore(url: url, logger: StoreBackend.quiet, node: Self.a),
                try PostgresStore(url: url, logger: StoreBackend.quiet, node: Self.b))
    }

    func session(_ code: String, on store: PostgresStore, host: String) throws -> SessionCode {
        try store.createUser(F.guest(host))
        let code = try F.code(code)
        try store.createSession(F.session(code, host: host))
        return code
    }

    @Test("a session belongs to the node that created it; its owner is found with the lease running")
    func createdOwned() throws {
        let (a, b) = try nodes()
        try a.registerNode(id: Self.a, url: Self.a, incarnation: "1", leaseMilliseconds: 60_000)
        let code = try session("ABC234", on: a, host: "h1")
        #expect(try b.owner(of: code) == SessionOwner(node: Self.a, url: Self.a, leased: true, draining: false))
        #expect(try b.liveSessions(ownedBy: Self.a) == [code])
        #expect(try b.liveSessions(ownedBy: Self.b).isEmpty)
        // Running lease: nobody adopts it.
        #expect(try b.adoptOrphans(node: Self.b, limit: 10).isEmpty)
        #expect(try !b.adopt(code, node: Self.b))
        try a.updateSessionState(code: code, to: .ended, at: F.at(1))
        #expect(try b.owner(of: code) == nil, "an ended session has no owner")
    }

    @Test("a lease that ran out: its sessions are adopted once, by one node")
    func adoption() throws {
        let (a, b) = try nodes()
        try a.registerNode(id: Self.a, url: Self.a, incarnation: "1", leaseMilliseconds: 1)
        try b.registerNode(id: Self.b, url: Self.b, incarnation: "1", leaseMilliseconds: 60_000)
        let codes = [try session("ABC234", on: a, host: "h1"), try session("XYZ789", on: a, host: "h2")]
        Thread.sleep(forTimeInterval: 0.01)
        #expect(try b.owner(of: codes[0])?.leased == false)
        #expect(try b.adoptOrphans(node: Self.b, limit: 1) == [codes[0]])
        #expect(try b.adopt(codes[1], node: Self.b))
        #expect(try b.adoptOrphans(node: Self.b, limit: 10).isEmpty)
        #expect(try !a.adopt(codes[0], node: Self.a), "b's lease runs: a cannot take it back")
        #expect(try a.liveSessions(ownedBy: Self.b) == codes.sorted { $0.value < $1.value })
    }

    /// Four nodes' stores on a fresh schema: n0's lease has run out and it owns sessions with these codes; n1-n3
    /// hold running leases.
    func deadNodeAndThree(orphans: [String]) throws -> ([PostgresStore], [SessionCode]) {
        let url = try PostgresTestServer.shared.get().makeSchema()
        let stores = try (0..<4).map { try PostgresStore(url: url, logger: StoreBackend.quiet, readers: 1, node: "n\($0)") }
        try stores[0].registerNode(id: "n0", url: "n0", incarnation: "1", leaseMilliseconds: 1)
        for i in 1...3 { try stores[i].registerNode(id: "n\(i)", url: "n\(i)", incarnation: "1", leaseMilliseconds: 60_000) }
        let codes = try orphans.enumerated().map { i, text in try session(text, on: stores[0], host: "h\(i)") }
        Thread.sleep(forTimeInterval: 0.01)
        return (stores, codes)
    }

    @Test("adopters racing: every orphan ends up with exactly one node")
    func racingAdopters() throws {
        let (stores, codes) = try deadNodeAndThree(orphans: ["ABC234", "BCD345", "CDE456", "DEF567", "EFG678", "FGH789"])
        let adopted = Mutex<[String: [SessionCode]]>([:])
        DispatchQueue.concurrentPerform(iterations: 3) { i in
            let node = "n\(i + 1)"
            // Each node checks a few times, as its periodic check would (a check adopts its share at most).
            var got: [SessionCode] = []
            for _ in 0..<4 { got += (try? stores[i + 1].adoptOrphans(node: node, limit: 100)) ?? [] }
            adopted.withLock { $0[node] = got }
        }
        let all = adopted.withLock { $0.values.flatMap { $0 } }
        #expect(all.count == codes.count)
        #expect(Set(all) == Set(codes))
    }

    @Test("a dead node's sessions are shared: each live node adopts its share (orphans over live nodes, rounded up)")
    func fairShare() throws {
        let (stores, _) = try deadNodeAndThree(orphans: ["ABC234", "BCD345", "CDE456", "DEF567", "EFG678", "FGH789",
                                                         "GHJ234"])
        // 7 orphans, 3 live nodes: 3, then 4 left over 3 nodes: 2, then 2 left: 1; the last one next time round.
        #expect(try stores[1].adoptOrphans(node: "n1", limit: 50).count == 3)
        #expect(try stores[2].adoptOrphans(node: "n2", limit: 50).count == 2)
        #expect(try stores[3].adoptOrphans(node: "n3", limit: 50).count == 1)
        #expect(try stores[1].adoptOrphans(node: "n1", limit: 50).count == 1)
        #expect(try stores[2].adoptOrphans(node: "n2", limit: 50).isEmpty)
    }

    @Test("renewal: another process of the node takes it over; draining and released leases")
    func renewal() throws {
        let (a, b) = try nodes()
        try a.registerNode(id: Self.a, url: Self.a, incarnation: "old", leaseMilliseconds: 60_000)
        #expect(try a.renewLease(id: Self.a, incarnation: "old", leaseMilliseconds: 60_000))
        try b.registerNode(id: Self.a, url: Self.a, incarnation: "new", leaseMilliseconds: 60_000)
        #expect(try !a.renewLease(id: Self.a, incarnation: "old", leaseMilliseconds: 60_000))
        #expect(try b.renewLease(id: Self.a, incarnation: "new", leaseMilliseconds: 60_000))
        try b.registerNode(id: Self.b, url: Self.b, incarnation: "1", leaseMilliseconds: 60_000)
        try b.setDraining(id: Self.b)
        var nodes = try a.nodes()
        #expect(nodes.map(\.id) == [Self.a, Self.b])
        #expect(nodes.map(\.draining) == [false, true])
        try b.releaseLease(id: Self.b, incarnation: "1")
        nodes = try a.nodes()
        #expect(nodes.map(\.leased) == [true, false])
    }

    @Test("handover moves only the sessions the node owns")
    func handOver() throws {
        let (a, b) = try nodes()
        let mine = try session("ABC234", on: a, host: "h1")
        let theirs = try session("XYZ789", on: b, host: "h2")
        #expect(try a.handOver([mine, theirs], from: Self.a, to: Self.b) == 1)
        #expect(try a.liveSessions(ownedBy: Self.b) == [mine, theirs])
        #expect(try a.handOver([], from: Self.a, to: Self.b) == 0)
    }

    @Test("the first node's token key is every node's")
    func sharedKey() throws {
        let (a, b) = try nodes()
        let first = try a.sharedSecret("token-key", proposed: [1, 2, 3])
        #expect(first == [1, 2, 3])
        #expect(try b.sharedSecret("token-key", proposed: [9, 9, 9]) == [1, 2, 3])
    }
}
