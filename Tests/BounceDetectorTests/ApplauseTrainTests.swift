import Foundation
import Testing
@testable import BounceDetector

@Suite("Applause by its rhythm")
struct ApplauseTrainTests {
    private let rate = 48000.0
    private func train() -> ApplauseTrain {
        ApplauseTrain(periodSamples: Int64(0.14 * rate)...Int64(0.33 * rate), tolerance: 0.25, speedUp: 0.95,
                      alivePeriods: 1.5, skips: 2)
    }
    /// Notes sounds at these times (s) and returns which were called applause.
    private func applause(_ times: [Double]) -> [Bool] {
        var applause = train()
        return times.map { applause.note(Int64($0 * rate)) }
    }

    @Test("one person clapping 5 a second (±10 %): the fourth clap on is applause, the first three are not")
    func onePerson() {
        #expect(applause([1.0, 1.21, 1.39, 1.60, 1.79, 2.01]) == [false, false, false, true, true, true])
    }

    @Test("two people clapping at their own rates, interleaved: applause from a train's fourth clap")
    func twoPeople() {
        let a = [1.0, 1.18, 1.36, 1.54, 1.72], b = [1.05, 1.32, 1.59, 1.86]
        let times = (a + b).sorted()
        let called = applause(times)
        #expect(called[times.firstIndex(of: 1.54)!], "the first person's fourth clap")
        #expect(called[times.firstIndex(of: 1.59)!], "the second's third, within the first's applause")
        #expect(!called[times.firstIndex(of: 1.36)!])
    }

    @Test("a dropped ball speeds up (gaps ×0.85–0.92): never applause, though bounces 1, 3, 5, 8 keep a steady beat")
    func droppedBall() {
        for (ratio, first) in [(0.85, 0.3), (0.9, 0.15), (0.92, 0.2), (0.88, 0.25)] {
            var t = 1.0, gap = first, times: [Double] = []
            while gap > 0.035 { times.append(t); t += gap; gap *= ratio }
            #expect(!applause(times).contains(true), "gaps ×\(ratio) from \(first) s")
        }
    }

    @Test("""
        claps whose gaps happen to shrink as a ball's (×0.93) but whose levels jump about are applause; the same \
        times fading 1.5 dB a sound are a ball bouncing on (and with the level check off, the claps are too)
        """)
    func speedingClapsThatDoNotFade() {
        let times = [19.05, 19.287, 19.508, 19.714, 19.905]
        let claps: [Float] = [-20, -14, -19, -13, -18], fading: [Float] = [-10, -11.5, -13, -14.5, -16]
        func called(_ levels: [Float], louder: Float) -> [Bool] {
            var applause = ApplauseTrain(periodSamples: Int64(0.14 * rate)...Int64(0.33 * rate), tolerance: 0.25,
                                         speedUp: 0.95, alivePeriods: 1.5, skips: 2, speedUpLouderDB: louder)
            return zip(times, levels).map { applause.note(Int64($0 * rate), levelDB: $1) }
        }
        #expect(called(claps, louder: 3) == [false, false, false, true, true])
        #expect(!called(fading, louder: 3).contains(true))
        #expect(!called(claps, louder: 0).contains(true), "off: every speeding train is a ball")
    }

    @Test("a rally's strokes (a serve's two bounces, then 0.3–0.9 s apart) are no applause")
    func rally() {
        #expect(!applause([1.0, 1.18, 1.52, 1.9, 2.35, 2.7, 3.3, 3.62, 4.1]).contains(true))
    }

    @Test("applause lasts 1.5 of its periods after the last clap, then a sound is judged afresh")
    func ends() {
        var applause = train()
        for t in [1.0, 1.2, 1.4, 1.6] { _ = applause.note(Int64(t * rate)) }
        #expect(applause.applauding(at: Int64(1.89 * rate)))
        #expect(!applause.applauding(at: Int64(1.91 * rate)))
        let lone = applause.note(Int64(2.6 * rate))
        #expect(!lone, "a lone sound after the applause")
    }

    /// An `ApplauseTrain` that also hears applause by its density: seven sounds within 1 s (±20 dB of the newest).
    private func crowd(levelDB: Float = 20) -> ApplauseTrain {
        ApplauseTrain(periodSamples: Int64(0.14 * rate)...Int64(0.33 * rate), tolerance: 0.25, speedUp: 0.95,
                      alivePeriods: 1.5, skips: 2, densityCount: 7, densitySamples: Int64(rate), densityGrowths: 2,
                      densityLevelDB: levelDB)
    }
    /// Notes sounds at these times (s) with these attacks (dB) and returns which were called applause.
    private func applause(_ times: [Double], attacks: [Float]? = nil, in applause: ApplauseTrain) -> [Bool] {
        var applause = applause
        return times.indices.map { applause.note(Int64(times[$0] * rate), attackDB: attacks?[$0] ?? 0) }
    }
    private let crowdTimes = [1.0, 1.02, 1.13, 1.16, 1.40, 1.45, 1.62]

    @Test("a group's uneven claps (seven in 0.62 s, no steady train): the seventh is applause by density, not by rhythm")
    func crowdByDensity() {
        #expect(applause(crowdTimes, in: crowd()) == [false, false, false, false, false, false, true])
        #expect(!applause(crowdTimes, in: train()).contains(true))
    }

    @Test("a dropped ball (ten bounces from 0.2 s apart, gaps ×0.85) is no crowd, though seven come within 1 s")
    func dropIsNoCrowd() {
        let times = (0..<10).reduce(into: [1.0]) { t, k in t.append(t.last! + 0.2 * pow(0.85, Double(k))) }
        #expect(!applause(times, in: crowd()).contains(true))
    }

    @Test("a serve 40 dB sharper than the applause's last claps is not counted with them (every level counted: it is)")
    func serveAfterCrowd() {
        let times = [1.0, 1.02, 1.13, 1.16, 1.40, 1.45, 1.95], attacks: [Float] = [15, 14, 16, 12, 15, 13, 55]
        #expect(applause(times, attacks: attacks, in: crowd()).last == false)
        #expect(applause(times, attacks: attacks, in: crowd(levelDB: 0)).last == true)
    }

    /// Onsets (s) the detector reports in `scene`, the applause rule on or off.
    private func reported(_ scene: [Float], applause: Bool, clearerDB: Float? = nil) throws -> [Double] {
        let detector = try ImpactDetector(format: AudioFormat(sampleRate: 48000, channels: 1)) { p in
            if !applause { p.applauseTolerance = 0 }
            if let clearerDB { p.applauseClearerDB = clearerDB }
        }
        var times: [Double] = []
        scene.withUnsafeBufferPointer { detector.process($0) { times.append($0.time) } }
        detector.finish { times.append($0.time) }
        return times
    }

    @Test("the detector: sharp sounds a ball could make, 3.5 a second, are reported until they are applause; a ball after it is")
    func detector() throws {
        // Table and racket sounds in turn (each unlike the last), 3.5 a second (slower than a bouncing ball's run),
        // then a ball 1.5 s on.
        let claps = [0.5, 0.79, 1.07, 1.37, 1.65, 1.93, 2.22]
        var events = claps.enumerated().map { ($1, ImpactSignals.impact(table: $0 % 2 == 0, rate: 48000)) }
        events.append((3.7, ImpactSignals.impact(table: true, rate: 48000)))
        let scene = ImpactSignals.scene(seconds: 4, rate: 48000, events: events)
        let without = try reported(scene, applause: false)
        #expect(without.count == 8, "every sound is a ball to its timbre: \(without)")
        let with = try reported(scene, applause: true)
        #expect(with.count == 4 && with.map { ($0 * 10).rounded() / 10 } == [0.5, 0.8, 1.1, 3.7], "\(with)")
    }

    /// A shoe's squeak: a whistle gliding up from 2.4 kHz that swells in 12 ms and holds for 150 ms.
    private func squeak(rate: Int) -> [Float] {
        (0..<(rate * 15 / 100)).map { n in
            let t = Float(n) / Float(rate)
            return 0.2 * min(1, t / 0.012) * sin(2 * .pi * (2400 * t + 900 * t * t))
        }
    }

    @Test("squeaks between two strokes make no train with them: the second stroke is reported")
    func squeaksAreNoClaps() throws {
        let scene = ImpactSignals.scene(seconds: 2.5, rate: 48000, events: [
            (0.5, ImpactSignals.impact(table: true, rate: 48000)), (0.77, squeak(rate: 48000)),
            (1.03, squeak(rate: 48000)), (1.3, ImpactSignals.impact(table: false, rate: 48000)),
        ])
        let times = try reported(scene, applause: true).map { ($0 * 10).rounded() / 10 }
        #expect(times.first == 0.5 && times.last == 1.3, "\(times)")
    }

    @Test("a serve struck 0.2 s after faint applause, far sharper than its claps, is reported (with the sharpness check off: not)")
    func sharperThanTheClaps() throws {
        let claps = [0.5, 0.79, 1.07, 1.37, 1.65, 1.93, 2.22]
        var events = claps.enumerated().map {
            ($1, ImpactSignals.impact(table: $0 % 2 == 0, rate: 48000, amplitude: 0.01))
        }
        events.append((2.42, ImpactSignals.impact(table: false, rate: 48000, amplitude: 0.3)))
        let scene = ImpactSignals.scene(seconds: 3.5, rate: 48000, events: events)
        let serve = { (times: [Double]) in times.contains { abs($0 - 2.42) < 0.002 } }
        let with = try reported(scene, applause: true)
        #expect(serve(with), "\(with)")
        let without = try reported(scene, applause: true, clearerDB: 0)
        #expect(!serve(without), "\(without)")
    }
}
