@testable import PongWire
import Testing
@testable import SessionHub

@Suite("ConnectionDrain: a listener's connections through a graceful shutdown")
struct ConnectionDrainTests {
    private let t0 = Fixture.t0

    @Test("shutdown quiesces every open connection; the last one closing finishes the drain")
    func drained() {
        var drain = ConnectionDrain()
        #expect(drain.opened(1) == [] && drain.opened(2) == [] && drain.opened(3) == [])
        #expect(drain.closed(2) == [])
        #expect(drain.shutdown(now: t0, timeout: .seconds(9)) == [.quiesce([1, 3]), .schedule(t0 + .seconds(9))])
        #expect(drain.shutdown(now: t0, timeout: .seconds(9)) == [])
        #expect(drain.closed(1) == [])
        #expect(drain.closed(3) == [.finished])
        #expect(drain.deadlinePassed(now: t0 + .seconds(9)) == [])
    }

    @Test("a connection accepted during the drain is quiesced at once; at the deadline the rest are closed")
    func deadline() {
        var drain = ConnectionDrain()
        _ = drain.opened(1)
        _ = drain.shutdown(now: t0, timeout: .seconds(9))
        #expect(drain.opened(2) == [.quiesce([2])])
        #expect(drain.deadlinePassed(now: t0 + .seconds(8)) == [.schedule(t0 + .seconds(9))])
        #expect(drain.deadlinePassed(now: t0 + .seconds(9)) == [.forceClose([1, 2])])
        #expect(drain.opened(3) == [.forceClose([3])])
        #expect(drain.closed(1) == [] && drain.closed(2) == [])
        #expect(drain.closed(3) == [.finished])
    }

    @Test("a shutdown with nothing open is finished at once")
    func empty() {
        var drain = ConnectionDrain()
        #expect(drain.shutdown(now: t0, timeout: .seconds(1)) == [.finished])
    }

    @Test("connections get the drain timeout less a fifth (at most 1 s) kept for the stragglers and the store")
    func budget() {
        #expect(ConnectionDrain.connectionBudget(of: .seconds(10)) == .seconds(9))
        #expect(ConnectionDrain.connectionBudget(of: .seconds(2)) == .milliseconds(1600))
    }
}

@Suite("ReconnectBackoff: how a phone comes back after a drop or a restart")
struct ReconnectBackoffTests {
    @Test("after a drop: 0.25 s doubling to 5 s, up to 50 % jitter; a welcome starts over")
    func drop() {
        var backoff = ReconnectBackoff()
        #expect([0, 0, 0, 0, 0, 0, 0].map { backoff.nextDelay(uniform: $0) } == [0.25, 0.5, 1, 2, 4, 5, 5])
        backoff.succeeded()
        #expect(backoff.nextDelay(code: 4008, uniform: 0.999_999) < 0.375)
        #expect(backoff.nextDelay(uniform: 1) == 0.75)
    }

    @Test("after 4100: the reason's hint first, then doubling")
    func restart() {
        var backoff = ReconnectBackoff()
        #expect(backoff.nextDelay(code: 4100, reason: CloseCode.serverRestarting.reason, uniform: 0) == 1)
        #expect(backoff.nextDelay(uniform: 0) == 2)
        backoff.succeeded()
        #expect(backoff.nextDelay(code: 4100, reason: "server restarting; retry in 2.5 s", uniform: 0.5) == 3.125)
        backoff.succeeded()
        #expect(backoff.nextDelay(code: 4100, reason: "server restarting", uniform: 0) == 1)
        #expect(ReconnectBackoff.retryHint(in: "retry in 9999 s") == nil)
        backoff.succeeded()
        #expect(backoff.nextDelay(code: 4129, reason: CloseCode.tooManyCodeGuesses(retryAfter: 30).reason, uniform: 0.5) == 30,
                "a hint longer than the cap is waited out")
    }
}
