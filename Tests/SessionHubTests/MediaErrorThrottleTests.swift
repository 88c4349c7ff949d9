@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Media error throttle: one error per socket per interval")
struct MediaErrorThrottleTests {
    let t0 = ContinuousClock.now
    let phone = ConnectionID(1)
    let other = ConnectionID(2)

    private func at(_ ms: Int) -> ContinuousClock.Instant { t0 + .milliseconds(ms) }

    @Test("the first error goes out; the next only once the interval has passed since the last one sent")
    func interval() {
        var throttle = MediaErrorThrottle(interval: .seconds(1))
        let sent = [0, 1, 999, 1000, 1500, 2000].map { throttle.mayReport(to: phone, now: at($0)) }
        #expect(sent == [true, false, false, true, false, true])
    }

    @Test("sockets are throttled apart; a forgotten socket starts afresh")
    func perSocket() {
        var throttle = MediaErrorThrottle(interval: .seconds(1))
        var sent = [(phone, 0), (other, 10), (phone, 20)].map { throttle.mayReport(to: $0, now: at($1)) }
        #expect(sent == [true, true, false])
        throttle.forget(phone)
        sent = [(phone, 30), (other, 40)].map { throttle.mayReport(to: $0, now: at($1)) }
        #expect(sent == [true, false])
    }

    @Test("a zero interval lets every error through")
    func zero() {
        var throttle = MediaErrorThrottle(interval: .zero)
        let sent = [0, 0, 1].map { throttle.mayReport(to: phone, now: at($0)) }
        #expect(sent == [true, true, true])
    }
}
