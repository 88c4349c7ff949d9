import Testing
@testable import pong_player_sim

@Suite("Per-phone counts, merged into the run's stats")
struct PhoneStatsTests {
    @Test("packets, filler, bounces and their latencies of several phones add up in the run's stats")
    func merge() {
        var first = PhoneStats()
        first.audioSent(lag: 1_000)
        first.audioSent(lag: 3_000)
        first.fillerBytes = 500
        first.bounceHeard(latency: 0.002)
        first.bounceHeard(latency: nil)
        var second = PhoneStats()
        second.audioSent(lag: 2_000)
        second.bounceHeard(latency: 0.004)

        var values = SimStats.Values()
        values.merge(first)
        values.merge(second)
        #expect(values.audioPackets == 3)
        #expect(values.fillerBytes == 500)
        #expect(values.bounces == 3)
        #expect(values.bouncesUnmapped == 1)
        #expect(values.sendLag.totalCount == 3)
        #expect(values.sendLag.valuesAreEquivalent(values.sendLag.max, 3_000))
        #expect(values.bounceLatency.totalCount == 2)
        #expect(Report(values).bounceLatencyMs == .init(p50: 2, p99: 4))
    }

    @Test("a send lag past the run's histogram is counted as a packet but not recorded (the merge cannot trap)")
    func lagOutOfRange() {
        var phone = PhoneStats()
        phone.audioSent(lag: SimStats.maxLatencyMicros + 1)
        phone.audioSent(lag: 10)
        var values = SimStats.Values()
        values.merge(phone)
        #expect(values.audioPackets == 2)
        #expect(values.sendLag.totalCount == 1)
    }
}
