import Testing
@testable import BounceDetector

@Suite("Bounce runs")
struct BounceRunTests {
    private let rate: Int64 = 48000
    private func run() -> BounceRun { BounceRun(longestGap: rate / 4, slowest: 2.1, fastest: 0.6) }

    @Test("after two impacts 190 ms apart, the next is due 114–250 ms on; nothing is due after one impact")
    func window() {
        var bounces = run()
        bounces.report(rate)
        #expect(!bounces.continues(at: rate + rate / 10), "one impact is no run")
        bounces.report(rate + rate * 19 / 100)
        let last = rate + rate * 19 / 100
        #expect(bounces.continues(at: last + rate * 17 / 100))
        #expect(bounces.continues(at: last + rate * 12 / 100))
        #expect(!bounces.continues(at: last + rate * 10 / 100), "far sooner than a bounce keeps its speed")
        #expect(!bounces.continues(at: last + rate * 26 / 100), "past the longest gap of a run")
    }

    @Test("a rally's shots, 0.3 s and more apart, are no run; a missed bounce does not end one")
    func rallyAndMiss() {
        var rally = run()
        rally.report(0)
        rally.report(rate * 4 / 10)
        #expect(!rally.continues(at: rate * 6 / 10))
        var drop = run()
        drop.report(0)
        drop.report(rate / 20)
        #expect(drop.continues(at: rate / 20 + rate * 9 / 100), "two gaps of 45 ms: the bounce between was missed")
    }

    @Test("runs off: nothing continues")
    func off() {
        var bounces = BounceRun(longestGap: 0, slowest: 2.1, fastest: 0.6)
        bounces.report(0)
        bounces.report(100)
        #expect(!bounces.continues(at: 180))
    }
}
