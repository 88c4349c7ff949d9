import Foundation
import Testing
@testable import BounceDetector

@Suite("An edge's lag behind the impact's first sample")
struct OnsetLagTests {
    /// The lag (samples at 48 kHz) of an edge whose onset frame rose `riseDB` over the room, with the detector's
    /// defaults (an attack over 1 ms, first sample at a tenth of the peak).
    private func lag(_ riseDB: Float) -> Int64 {
        let parameters = DetectorParameters(sampleRate: 48000)
        return OnsetRefiner.lag(riseDB: riseDB, attackSeconds: parameters.onsetLagSeconds,
                                share: parameters.onsetLagShare, sampleRate: 48000)
    }

    @Test("an impact 20 dB or more over its background is timed at its edge")
    func loudImpactsDoNotMove() {
        #expect(lag(20) == 0)
        #expect(lag(40) == 0)
    }

    @Test("an impact 6 dB over its background cleared it 0.4 ms into its attack (background at half its amplitude)")
    func faintImpactMovesBack() {
        #expect(lag(6.0206) == 19)  // 1 ms × (0.5 − 0.1) at 48 kHz
        #expect(lag(3) > lag(6) && lag(6) > lag(12) && lag(12) > 0)
    }

    @Test("no impact moves back more than its attack less the share of its first sample, nor on an unmeasured rise")
    func bounded() {
        #expect(lag(0) == 43)  // 1 ms × 0.9
        #expect(lag(-10) == 43)
        #expect(lag(.nan) == 0)
        #expect(lag(-.infinity) == 0)
        #expect(OnsetRefiner.lag(riseDB: 3, attackSeconds: 0, share: 0.1, sampleRate: 48000) == 0)
    }
}
