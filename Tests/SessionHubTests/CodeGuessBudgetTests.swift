import Testing
@testable import SessionHub

@Suite("Failed code lookups per address")
struct CodeGuessBudgetTests {
    private let t0 = ContinuousClock.now

    /// The answers of `count` failed lookups from `address` at `now`: nil (404) or the seconds to wait (429).
    private func spend(_ budget: inout CodeGuessBudget, _ count: Int, from address: String = "192.0.2.1",
                       at now: ContinuousClock.Instant) -> [Int?] {
        (0..<count).map { _ in budget.spend(for: address, now: now) }
    }

    @Test("20 failures at once are answered as unknown, the 21st waits 3 s (20 a minute)")
    func burst() {
        var budget = CodeGuessBudget(burst: 20, perSecond: 20.0 / 60)
        let answers = spend(&budget, 21, at: t0)
        #expect(answers.prefix(20).allSatisfy { $0 == nil } && answers.last == 3)
    }

    @Test("looking without failing spends nothing: an address with budget may look 1000 times")
    func waitDoesNotSpend() {
        var budget = CodeGuessBudget(burst: 2, perSecond: 1)
        #expect((0..<1000).allSatisfy { _ in budget.wait(for: "192.0.2.1", now: t0) == nil })
    }

    @Test("a spent budget refuses every lookup until it refills one, then one more failure")
    func spentThenRefilled() {
        var budget = CodeGuessBudget(burst: 2, perSecond: 0.5)
        _ = spend(&budget, 2, at: t0)
        #expect(budget.wait(for: "192.0.2.1", now: t0) == 2 && budget.wait(for: "192.0.2.1", now: t0 + .seconds(2)) == nil)
        #expect(spend(&budget, 2, at: t0 + .seconds(2)) == [nil, 2])
    }

    @Test("addresses are counted apart: another IPv4 address keeps its budget")
    func perAddress() {
        var budget = CodeGuessBudget(burst: 1, perSecond: 1.0 / 60)
        #expect(spend(&budget, 2, at: t0) == [nil, 60] && spend(&budget, 1, from: "192.0.2.2", at: t0) == [nil])
    }

    @Test("an IPv6 /64 is one address: a neighbour in the /64 shares the budget, the next /64 does not")
    func ipv6Prefix() {
        var budget = CodeGuessBudget(burst: 1, perSecond: 1.0 / 60)
        #expect(spend(&budget, 1, from: "2001:db8:1:2::1", at: t0) == [nil])
        #expect(spend(&budget, 1, from: "2001:db8:1:2:ffff::9", at: t0) == [60])
        #expect(spend(&budget, 1, from: "2001:db8:1:3::1", at: t0) == [nil])
    }

    @Test("keys: IPv4 as is, IPv6 by its /64, IPv4-mapped IPv6 as IPv4, anything else as given")
    func keys() {
        #expect(CodeGuessBudget.key(of: "192.0.2.1") == "192.0.2.1")
        #expect(CodeGuessBudget.key(of: "2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64")
        #expect(CodeGuessBudget.key(of: "::ffff:192.0.2.1") == "192.0.2.1")
        #expect(CodeGuessBudget.key(of: "unknown") == "unknown")
    }

    @Test("the default budget (20, then 20 a minute) lets one address find a live code among 100 000 in 2^30 no sooner than 2 h on average")
    func defaultsOutlastASession() {
        let perGuess = 100_000.0 / Double(1 << 30)
        let expectedGuesses = 1 / perGuess
        let expectedSeconds = (expectedGuesses - 20) / (20.0 / 60)
        #expect(expectedSeconds > 2 * 3600 && expectedSeconds / 3600 > 8.9 && expectedSeconds / 3600 < 9)
    }
}
