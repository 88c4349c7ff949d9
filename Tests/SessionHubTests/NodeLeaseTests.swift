import Testing
import PongWire
@testable import SessionHub

/// `NodeLease`: held, store reachable, may adopt — on an injected clock.
struct NodeLeaseTests {
    let t0 = ContinuousClock.now

    @Test("held for its duration after each renewal")
    func held() {
        var lease = NodeLease(duration: .seconds(6))
        #expect(!lease.held(at: t0))
        #expect(lease.renewed(at: t0) == .none)
        #expect(lease.held(at: t0 + .seconds(5.9)))
        #expect(!lease.held(at: t0 + .seconds(6)))
    }

    @Test("a node adopts only after a full lease of renewals without a gap")
    func adoptsAfterHealthyLease() {
        var lease = NodeLease(duration: .seconds(6))
        _ = lease.renewed(at: t0)
        #expect(!lease.mayAdopt(at: t0 + .seconds(5)))
        _ = lease.renewed(at: t0 + .seconds(1.5))
        #expect(lease.mayAdopt(at: t0 + .seconds(6)))
        // The database goes away: no adoption until it has been back for a whole lease.
        #expect(lease.failed(at: t0 + .seconds(7)) == .storeLost)
        #expect(!lease.storeReachable)
        #expect(!lease.mayAdopt(at: t0 + .seconds(8)))
        #expect(lease.failed(at: t0 + .seconds(9)) == .none)
        #expect(lease.renewed(at: t0 + .seconds(20)) == .storeReturned)
        #expect(lease.storeReachable)
        #expect(!lease.mayAdopt(at: t0 + .seconds(25)))
        #expect(lease.mayAdopt(at: t0 + .seconds(26)))
    }

    @Test("the 4101 reason is the owner's socket URL, ws for http and wss for https")
    func socketURL() throws {
        let code = try #require(SessionCode(userInput: "abc-234"))
        #expect(ClusterNode.socketURL(code: code, role: .player(userId: "u1"), at: "http://10.0.0.5:8080")
                == "ws://10.0.0.5:8080/sessions/ABC234/player/u1")
        #expect(ClusterNode.socketURL(code: code, role: .dashboard, at: "https://b.pong.example")
                == "wss://b.pong.example/sessions/ABC234/dashboard")
    }
}
