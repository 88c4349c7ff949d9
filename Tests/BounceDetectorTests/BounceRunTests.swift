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

    @Test("after a missed bounce the run keeps its pace: the bounce after the reported one still continues it")
    func paceAfterMiss() {
        var drop = run()
        drop.report(0)
        drop.report(rate * 100 / 1000)  // gaps 100 ms, then 90 ms (missed) + 81 ms
        drop.report(rate * 271 / 1000)
        #expect(drop.continues(at: rate * (271 + 73) / 1000), "73 ms on: 0.43 of the 171 ms it measured, 0.9 of its pace")
        var steady = run()
        steady.report(0)
        steady.report(rate * 100 / 1000)
        steady.report(rate * 190 / 1000)
        #expect(!steady.continues(at: rate * (190 + 40) / 1000), "far sooner than a bounce keeps its speed")
    }

    @Test("runs off: nothing continues")
    func off() {
        var bounces = BounceRun(longestGap: 0, slowest: 2.1, fastest: 0.6)
        bounces.report(0)
        bounces.report(100)
        #expect(!bounces.continues(at: 180))
    }
}
