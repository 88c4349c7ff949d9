import Testing
@testable import BounceDetector

@Suite("A run's evidence")
struct RunEvidenceTests {
    private let rate: Int64 = 48000

    /// Evidence of a dropped ball that has bounced four times, 200 ms, then each gap × 0.85, every bounce at
    /// `levels`; the frame of its last bounce and the gap its clock puts the next one at.
    private func droppedBall(levels: SIMD8<Float>, _ tune: (inout DetectorParameters) -> Void = { _ in })
        -> (evidence: RunEvidence, last: Int64, next: Int64) {
        var parameters = DetectorParameters(sampleRate: Int(rate))
        tune(&parameters)
        let evidence = RunEvidence(parameters: parameters, bands: 7)
        var last = rate, gap = Double(rate) / 5
        evidence.report(last, levels: levels, excessDB: 20, endsRejectedRun: false)
        for _ in 0..<3 {
            last += Int64(gap.rounded())
            gap *= 0.85
            evidence.report(last, levels: levels, excessDB: 20, endsRejectedRun: false)
        }
        return (evidence, last, Int64(gap.rounded()))
    }

    @Test("""
        a due candidate 7 dB quieter than the last bounce and 4 % or more off the clock is the ring stirring, not the \\
        next bounce; on the clock, less quiet, or with the rule off, it is not judged so
        """)
    func ringStirring() {
        let levels = SIMD8<Float>(-20, -18, -22, -25, -28, -30, -33, -.infinity)
        let (evidence, last, next) = droppedBall(levels: levels)
        let early = last + next * 95 / 100
        #expect(evidence.stirsEarly(early, levels - 8), "5 % early, 8 dB quieter")
        #expect(!evidence.stirsEarly(early, levels - 3), "3 dB quieter: a ball keeps most of its energy")
        #expect(!evidence.stirsEarly(last + next, levels - 8), "on the clock")
        #expect(!evidence.stirsEarly(last + next * 98 / 100, levels - 8), "2 % early")
        let off = droppedBall(levels: levels) { $0.runStirQuieterDB = 0 }
        #expect(!off.evidence.stirsEarly(early, levels - 8), "off")
    }
}
