@testable import PongWire
import Testing
@testable import SessionHub

@Suite("HTTPDeadlines: head, body and keep-alive deadlines of one connection")
struct HTTPDeadlinesTests {
    private let t0 = Fixture.t0

    private var limits: TransportLimits {
        var limits = TransportLimits()
        limits.requestHeadTimeout = .seconds(10)
        limits.requestBodyTimeout = .seconds(60)
        limits.keepAliveTimeout = .seconds(30)
        return limits
    }

    @Test("a connection that never completes a head is closed at the head deadline, not before")
    func head() {
        var deadlines = HTTPDeadlines(limits: limits)
        #expect(deadlines.opened(now: t0) == .schedule(t0 + .seconds(10)))
        #expect(deadlines.timerFired(now: t0 + .seconds(9)) == .schedule(t0 + .seconds(10)))
        #expect(deadlines.timerFired(now: t0 + .seconds(10)) == .close)
    }

    @Test("the body has its own deadline from the head; none while the server responds")
    func body() {
        var deadlines = HTTPDeadlines(limits: limits)
        _ = deadlines.opened(now: t0)
        #expect(deadlines.headReceived(now: t0 + .seconds(1)) == .schedule(t0 + .seconds(61)))
        #expect(deadlines.phase == .readingBody)
        #expect(deadlines.timerFired(now: t0 + .seconds(61)) == .close)
        #expect(deadlines.requestEnded() == .cancel)
        #expect(deadlines.timerFired(now: t0 + .seconds(3600)) == nil)
    }

    @Test("after a response the keep-alive timeout runs until the next head")
    func keepAlive() {
        var deadlines = HTTPDeadlines(limits: limits)
        _ = deadlines.opened(now: t0)
        _ = deadlines.headReceived(now: t0)
        _ = deadlines.requestEnded()
        #expect(deadlines.responseSent(now: t0 + .seconds(2)) == .schedule(t0 + .seconds(32)))
        #expect(deadlines.phase == .awaitingHead)
        #expect(deadlines.timerFired(now: t0 + .seconds(31)) == .schedule(t0 + .seconds(32)))
        #expect(deadlines.timerFired(now: t0 + .seconds(32)) == .close)
    }
}

@Suite("ConnectionLimiter: connections in total and per client address")
struct ConnectionLimiterTests {
    @Test("an address over its cap is refused while others are admitted; a close frees a place")
    func perAddress() {
        var limiter = ConnectionLimiter(maxTotal: 10, maxPerAddress: 2)
        #expect(limiter.opened(from: "a") == .admit)
        #expect(limiter.opened(from: "a") == .admit)
        #expect(limiter.opened(from: "a") == .refuseAddress)
        #expect(limiter.opened(from: "b") == .admit)
        limiter.closed(from: "a")
        #expect(limiter.opened(from: "a") == .admit)
        #expect(limiter.total == 3)
    }

    @Test("beyond the total cap every new connection is refused; refused ones are not counted")
    func total() {
        var limiter = ConnectionLimiter(maxTotal: 2, maxPerAddress: 5)
        #expect(limiter.opened(from: "a") == .admit)
        #expect(limiter.opened(from: "b") == .admit)
        #expect(limiter.opened(from: "c") == .refuseTotal)
        limiter.closed(from: "c")
        #expect(limiter.total == 2)
        limiter.closed(from: "b")
        #expect(limiter.opened(from: "c") == .admit)
        #expect(limiter.perAddress == ["a": 1, "c": 1])
    }

    @Test("a trusted proxy (uncapped) passes the per-address cap but not the total one, and is still counted")
    func uncapped() {
        var limiter = ConnectionLimiter(maxTotal: 3, maxPerAddress: 1)
        let admissions = (0..<4).map { _ in limiter.opened(from: "proxy", capped: false) }
        #expect(admissions == [.admit, .admit, .admit, .refuseTotal] && limiter.perAddress == ["proxy": 3])
    }
}

@Suite("UserSocketCounter: WebSockets per user")
struct UserSocketCounterTests {
    @Test("a user over the cap is refused; closing one of theirs frees a place; unknown closes are ignored")
    func cap() {
        var counter = UserSocketCounter(maxPerUser: 2)
        let u = UserID("u"), v = UserID("v")
        let first = [counter.opened(1, user: u), counter.opened(2, user: u), counter.opened(3, user: u),
                     counter.opened(4, user: v)]
        #expect(first == [true, true, false, true])
        counter.closed(3)
        #expect(counter.byUser[u] == 2)
        counter.closed(1)
        let again = counter.opened(5, user: u)
        #expect(again)
    }

    @Test("a socket counted while its session was located is not counted again when it is attached")
    func countedOnce() {
        var counter = UserSocketCounter(maxPerUser: 2)
        let u = UserID("u")
        let opened = [counter.opened(1, user: u), counter.opened(1, user: u), counter.opened(2, user: u)]
        #expect(opened == [true, true, true])
        #expect(counter.byUser[u] == 2)
        counter.closed(1)
        counter.closed(1)
        #expect(counter.byUser[u] == 1)
    }
}
