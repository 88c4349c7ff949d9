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

    @Test("""
        a drop whose gaps were 189 and 160 ms loses its fourth bounce: the fifth, 259 ms on (gap × (r + r²)), is past \
        the longest gap of a run (250 ms) but continues it when a run may resume there, and the run counts the lost one
        """)
    func resumePastLongestGap() {
        for resumes in [false, true] {
            var drop = BounceRun(longestGap: rate / 4, slowest: 2.1, fastest: 0.6, clockTolerance: 0.08,
                                 resumesPastLongestGap: resumes)
            drop.report(0)
            drop.report(rate * 189 / 1000)
            drop.report(rate * 349 / 1000)
            let fifth = rate * (349 + 259) / 1000
            #expect(drop.continues(at: fifth) == resumes, "resumes past the longest gap: \(resumes)")
            #expect(!drop.continues(at: rate * (349 + 300) / 1000), "300 ms: off the clock, past the longest gap")
            drop.report(fifth)
            #expect(drop.length == 5 && drop.clockHeld, "the lost bounce counts, and the fifth came on the clock")
        }
    }

    @Test("the report before the last keeps its levels: after a run's third report, the second's")
    func previousLevels() {
        var drop = run()
        let levels = (0..<3).map { SIMD8<Float>(repeating: -20 - 3 * Float($0)) }
        for (i, level) in levels.enumerated() { drop.report(rate * Int64(i) / 8, levels: level) }
        #expect(drop.lastLevels == levels[2] && drop.previousLevels == levels[1])
    }

    @Test("a lone impact forgotten before the next report: that report starts a run of one, and no gap from it")
    func forgetLast() {
        var bounces = run()
        bounces.report(rate)
        bounces.forgetLast()
        bounces.report(rate + rate * 4 / 100)
        #expect(bounces.length == 1)
        #expect(!bounces.continues(at: rate + rate * 4 / 100 + rate * 3 / 100), "no 40 ms gap to continue")
        bounces.report(rate + rate * 4 / 100 + rate * 19 / 100)
        #expect(bounces.length == 2, "the next impact makes the run of two")
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

    @Test("with a first gap, one impact may start a run: a candidate within it is the run's second bounce")
    func firstGap() {
        var bounces = BounceRun(longestGap: rate / 4, slowest: 2.1, fastest: 0.6, firstGap: rate / 5,
                                shortestFirstGap: rate * 8 / 100)
        bounces.report(rate)
        #expect(!bounces.continues(at: rate + rate * 22 / 1000), "22 ms on: the impact's own rattle, not a bounce")
        #expect(bounces.starts(at: rate + rate * 19 / 100) && bounces.continues(at: rate + rate * 19 / 100))
        #expect(!bounces.continues(at: rate + rate * 21 / 100), "past the first gap")
        bounces.report(rate + rate * 19 / 100)
        #expect(!bounces.starts(at: rate + rate * 36 / 100), "the run has started: its pace decides")
        #expect(bounces.continues(at: rate + rate * 36 / 100))
    }

    @Test("the same object struck again: same band shape, no louder; another sound or a louder one is not")
    func resemblance() {
        var bounces = run()
        let ball = SIMD8<Float>(-40, -34, -30, -28, -31, -36, -45, -.infinity)
        bounces.report(0, levels: ball)
        let quieter = ball - SIMD8(repeating: 6) + SIMD8(1, -1, 0.5, 0, -0.5, 1, -1, 0)
        #expect(bounces.resembles(quieter, bands: 7, shapeDB: 4, louderDB: 3))
        #expect(!bounces.resembles(ball + SIMD8(repeating: 5), bands: 7, shapeDB: 4, louderDB: 3), "louder than the last bounce")
        let hiss = SIMD8<Float>(-60, -55, -50, -45, -38, -32, -28, -.infinity)
        #expect(!bounces.resembles(hiss, bands: 7, shapeDB: 4, louderDB: 3), "energy in other bands")
        #expect(bounces.resembles(hiss, bands: 7, shapeDB: 0, louderDB: 3), "shape 0: not asked")
    }

    @Test("a ball bouncing ever faster speeds up; a steady rhythm, a lone impact or a pair does not")
    func speedsUp() {
        var drop = run()
        drop.report(0)
        drop.report(rate * 200 / 1000)
        #expect(!drop.speedsUp(at: rate * 370 / 1000, pace: 0.98), "two impacts: no pace yet")
        drop.report(rate * 380 / 1000)  // gaps 200, 180 ms
        #expect(drop.length == 3)
        #expect(drop.speedsUp(at: rate * 542 / 1000, pace: 0.98), "162 ms on: 0.9 of the last gap")
        #expect(!drop.speedsUp(at: rate * 560 / 1000, pace: 0.98), "180 ms on: no faster than the last gap")
        var claps = run()
        claps.report(0)
        claps.report(rate * 150 / 1000)
        claps.report(rate * 300 / 1000)  // gaps 150, 150 ms
        #expect(claps.continues(at: rate * 440 / 1000), "a steady rhythm continues a run…")
        #expect(!claps.speedsUp(at: rate * 440 / 1000, pace: 0.98), "…but does not speed up")
        claps.report(rate * 900 / 1000)
        #expect(claps.length == 1, "600 ms on: a lone impact again")
    }

    @Test("a lone impact's template window may reach past the first gap; a second bounce keeps most of the level")
    func secondBounce() {
        var bounces = BounceRun(longestGap: rate / 4, slowest: 2.1, fastest: 0.6, firstGap: rate / 5,
                                shortestFirstGap: rate * 8 / 100)
        let ball = SIMD8<Float>(-40, -34, -30, -28, -31, -36, -45, -.infinity)
        bounces.report(rate, levels: ball)
        #expect(!bounces.starts(at: rate + rate * 22 / 100))
        #expect(bounces.starts(at: rate + rate * 22 / 100, within: rate / 4), "220 ms: within a 250 ms window")
        #expect(!bounces.starts(at: rate + rate * 5 / 100, within: rate / 4), "50 ms: the impact's own rattle")
        #expect(bounces.starts(at: rate + rate * 10 / 100, within: rate / 4), "100 ms: a low drop's second bounce")
        #expect(!bounces.starts(at: rate + rate * 10 / 100, within: rate / 4, after: rate * 12 / 100),
                "100 ms, where a rule asks 120 ms or more")
        #expect(bounces.resembles(ball - SIMD8(repeating: 2), bands: 7, shapeDB: 2.5, louderDB: 3, quieterDB: 4))
        #expect(!bounces.resembles(ball - SIMD8(repeating: 8), bands: 7, shapeDB: 2.5, louderDB: 3, quieterDB: 4),
                "8 dB quieter with the same shape: an echo, not a bounce")
    }

    @Test("""
        a run's clock: with gaps 100 and 90 ms (r = 0.9) the next bounce is due 81 ms on, or 153.9 ms on after a lost \
        one; a run that resumes there keeps its pace, and a bounce on the clock holds it
        """)
    func clock() {
        var drop = BounceRun(longestGap: rate / 4, slowest: 2.1, fastest: 0.6, clockTolerance: 0.08)
        drop.report(0)
        drop.report(rate * 100 / 1000)
        drop.report(rate * 190 / 1000)
        #expect(!drop.clockHeld, "two gaps make a ratio, not yet a clock that held")
        #expect(drop.onTime(at: rate * (190 + 81) / 1000))
        #expect(drop.onTime(at: rate * (190 + 86) / 1000), "86 ms: within 8 % of 81")
        #expect(!drop.onTime(at: rate * (190 + 90) / 1000), "90 ms: the last gap again, no bounce keeps its speed")
        #expect(!drop.onTime(at: rate * (190 + 110) / 1000), "between the next bounce and the one after")
        #expect(drop.onTime(at: rate * (190 + 154) / 1000), "one bounce lost: 81 + 72.9 ms on")
        #expect(drop.speedsUp(at: rate * (190 + 154) / 1000, pace: 0.98), "the run resumes after a lost bounce")
        #expect(!drop.speedsUp(at: rate * (190 + 130) / 1000, pace: 0.98), "130 ms: neither the next nor the one after")
        var resumed = drop
        resumed.report(rate * (190 + 154) / 1000)
        #expect(resumed.clockHeld && resumed.length == 5, "the lost bounce counts")
        #expect(resumed.onTime(at: rate * (344 + 66) / 1000), "the run goes on at 0.9: 72.9 × 0.9 ≈ 66 ms on")
        drop.report(rate * (190 + 81) / 1000)
        #expect(drop.clockHeld)
        var off = BounceRun(longestGap: rate / 4, slowest: 2.1, fastest: 0.6)
        off.report(0)
        off.report(rate * 100 / 1000)
        off.report(rate * 190 / 1000)
        #expect(!off.onTime(at: rate * (190 + 81) / 1000) && !off.speedsUp(at: rate * (190 + 154) / 1000, pace: 0.98),
                "no clock: no bounce is on time, and a lost bounce is not bridged")
    }

    @Test("how far an onset lies from the clock: from the nearer of gap × r and gap × (r + r²); none before three impacts")
    func clockError() {
        var drop = BounceRun(longestGap: rate / 4, slowest: 2.1, fastest: 0.6, clockTolerance: 0.08)
        drop.report(0)
        drop.report(rate * 100 / 1000)
        #expect(drop.clockError(at: rate * 190 / 1000) == nil, "one gap: no ratio yet")
        drop.report(rate * 190 / 1000)
        #expect(abs((drop.clockError(at: rate * (190 + 81) / 1000) ?? 1)) < 0.001, "81 ms: gap × 0.9, on time")
        #expect(abs((drop.clockError(at: rate * (190 + 55) / 1000) ?? 0) - 26.0 / 81) < 0.001, "55 ms: 26 of 81 early")
        #expect(abs((drop.clockError(at: rate * (190 + 150) / 1000) ?? 1) - 3.9 / 153.9) < 0.001, "a bounce lost")
    }

    @Test("an onset is ahead of the clock before gap × r after the last impact; never before the run has a clock")
    func aheadOfClock() {
        var drop = BounceRun(longestGap: rate / 4, slowest: 2.1, fastest: 0.6, clockTolerance: 0.08)
        drop.report(0)
        drop.report(rate * 100 / 1000)
        #expect(!drop.isAheadOfClock(rate * 150 / 1000), "one gap: no clock")
        drop.report(rate * 190 / 1000)
        #expect(drop.isAheadOfClock(rate * (190 + 78) / 1000), "78 ms of 81")
        #expect(!drop.isAheadOfClock(rate * (190 + 84) / 1000), "84 ms of 81")
    }

    @Test("""
        a late bounce's clock from four gaps: onsets timed within a millisecond (a swapped drop's, 0.91 a bounce) put \
        the bounce at 42.3 ms on time, where the last two gaps alone put it 14 % late
        """)
    func clockOverFourGaps() {
        let onsets: [Int64] = [120_944, 124_839, 128_395, 131_598, 134_573, 137_191, 139_685, 141_795]
        let bounce: Int64 = 143_824
        func drop(gaps: Int) -> BounceRun {
            var run = BounceRun(longestGap: rate / 4, slowest: 2.1, fastest: 0.6, clockTolerance: 0.08, clockGaps: gaps)
            for onset in onsets { run.report(onset) }
            return run
        }
        let fitted = drop(gaps: 4), lastTwo = drop(gaps: 2)
        #expect(fitted.onTime(at: bounce) && abs((fitted.clockError(at: bounce) ?? 1) - 0.050) < 0.002)
        #expect(!lastTwo.onTime(at: bounce) && abs((lastTwo.clockError(at: bounce) ?? 0) - 0.136) < 0.002)
        #expect(!fitted.onTime(at: onsets.last! + (onsets.last! - onsets[onsets.count - 2])),
                "the last gap again is still no bounce")
    }

    @Test("a run of two's third bounce is due 0.6–0.98 of its one gap on: not after one impact, nor in a longer run")
    func thirdBounce() {
        var drop = run()
        drop.report(0)
        #expect(!drop.third(at: rate * 150 / 1000, pace: 0.98), "one impact: no gap yet")
        drop.report(rate * 180 / 1000)
        #expect(drop.third(at: rate * (180 + 150) / 1000, pace: 0.98), "150 ms after a 180 ms gap")
        #expect(!drop.third(at: rate * (180 + 180) / 1000, pace: 0.98), "the same gap again: not speeding up")
        #expect(!drop.third(at: rate * (180 + 100) / 1000, pace: 0.98), "100 ms: under 0.6 of the gap")
        drop.report(rate * (180 + 150) / 1000)
        #expect(!drop.third(at: rate * (330 + 125) / 1000, pace: 0.98), "a run of three has its template and clock")
    }

    @Test("""
        a bouncing ball's pace: 0.8–0.95 of a run of two's one gap on, within the tolerance of a longer run's clock; \
        never after one impact
        """)
    func pace() {
        let ratios = 0.8...0.95
        var drop = BounceRun(longestGap: rate / 4, slowest: 2.1, fastest: 0.6, clockTolerance: 0.08)
        drop.report(0)
        #expect(!drop.keepsPace(at: rate * 180 / 1000, ratios: ratios, clockTolerance: 0.03), "one impact: no gap")
        drop.report(rate * 200 / 1000)
        #expect(drop.keepsPace(at: rate * (200 + 174) / 1000, ratios: ratios, clockTolerance: 0.03), "0.87 of 200 ms")
        #expect(!drop.keepsPace(at: rate * (200 + 200) / 1000, ratios: ratios, clockTolerance: 0.03), "the same gap")
        #expect(!drop.keepsPace(at: rate * (200 + 150) / 1000, ratios: ratios, clockTolerance: 0.03), "0.75 of it")
        drop.report(rate * (200 + 180) / 1000)  // gaps 200, 180 ms: the clock puts the next 162 ms on
        #expect(drop.keepsPace(at: rate * (380 + 165) / 1000, ratios: ratios, clockTolerance: 0.03), "1.9 % late")
        #expect(!drop.keepsPace(at: rate * (380 + 150) / 1000, ratios: ratios, clockTolerance: 0.03),
                "7 % early: within the pace of a run of two, not within the clock's 3 %")
    }

    @Test("a run seeded from a rejected run is on its clock at once: its next bounce is due gap × r on")
    func seeded() {
        var drop = BounceRun(longestGap: rate / 4, slowest: 2.1, fastest: 0.6, clockTolerance: 0.08)
        drop.seed(rate, gap: rate * 90 / 1000, previousGap: rate * 100 / 1000, length: 4, levels: SIMD8(repeating: -20))
        #expect(drop.clockHeld && drop.length == 4)
        #expect(drop.onTime(at: rate + rate * 81 / 1000) && drop.continues(at: rate + rate * 81 / 1000))
        #expect(!drop.onTime(at: rate + rate * 90 / 1000))
        #expect(drop.resembles(SIMD8(repeating: -22), bands: 7, shapeDB: 2, louderDB: 3))
    }
}

@Suite("Rejected runs")
struct RejectedRunTests {
    private let rate: Int64 = 48000
    private let ball = SIMD8<Float>(-20, -14, -10, -12, -18, -22, -25, 0)

    /// Notes candidates at these times (ms), each `stepDB` quieter than the one before; the verdicts.
    private func note(_ times: [Int64], length: Int = 4, stepDB: Float = -1, shapes: [SIMD8<Float>]? = nil) -> [Bool] {
        var run = RejectedRun(length: length, longestGap: rate / 4, tolerance: 0.08)
        return times.indices.map { i in
            let levels = shapes?[i] ?? ball + SIMD8(repeating: stepDB * Float(i))
            return run.note(rate * times[i] / 1000, levels: levels, bands: 7, shapeDB: 4, louderDB: 3)
        }
    }

    @Test("four rejected candidates whose gaps shrink by one ratio (120, 100, 83 ms) are a ball; the fifth too")
    func bouncingBall() {
        #expect(note([0, 120, 220, 303, 372]) == [false, false, false, true, true])
        var run = RejectedRun(length: 4, longestGap: rate / 4, tolerance: 0.08)
        for ms: Int64 in [0, 120, 220, 303] { _ = run.note(rate * ms / 1000, levels: ball, bands: 7, shapeDB: 4, louderDB: 3) }
        #expect(run.gaps.last == rate * 83 / 1000 && run.gaps.before == rate * 100 / 1000)
    }

    @Test("a steady rhythm, a ratio that does not hold, a gap over the longest, a louder or another sound: no ball")
    func notABall() {
        #expect(!note([0, 100, 200, 300, 400]).contains(true), "claps or steps: the same gap")
        #expect(!note([0, 120, 220, 260]).contains(true), "0.83 then 0.4: no ball keeps so little of its speed")
        #expect(!note([0, 300, 550, 760]).contains(true), "gaps over 250 ms")
        #expect(!note([0, 120, 220, 303], stepDB: 4).contains(true), "each 4 dB louder than the last")
        let other = SIMD8<Float>(-10, -25, -10, -25, -10, -25, -10, 0)
        #expect(!note([0, 120, 220, 303], shapes: [ball, ball, ball, other]).contains(true), "another sound")
        #expect(note([0, 120, 220], length: 3) == [false, false, true], "three will do when asked")
    }
}
