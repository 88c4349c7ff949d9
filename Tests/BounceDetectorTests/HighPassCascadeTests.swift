import Foundation
import Testing
@testable import BounceDetector

@Suite("High-pass cascade")
struct HighPassCascadeTests {
    /// Noise with a click: what the detector's input filter meets.
    private func signal(_ count: Int) -> [Float] {
        var seed: UInt32 = 99
        return (0..<count).map { i in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return (Float(seed >> 8) / Float(1 << 24) - 0.5) + (i == 300 ? 8 : 0)
        }
    }

    /// The two biquads sample by sample, as the detector ran them before the block step.
    private func reference(_ x: [Float], rate: Int) -> [Float] {
        var a = Biquad.highPass(cutoff: 700, sampleRate: rate), b = a
        return x.map { b.process(a.process($0)) }
    }

    @Test("eight at a time filters as sample by sample does, at every rate", arguments: [8000, 44100, 48000, 96000])
    func blocksMatchSamples(rate: Int) {
        let x = signal(4000)
        let want = reference(x, rate: rate)
        var filter = HighPassCascade(cutoff: 700, sampleRate: rate)
        var got: [Float] = []
        var i = 0
        while i + 8 <= x.count {
            let block = filter.process(SIMD8(x[i..<(i + 8)]))
            got += (0..<8).map { block[$0] }
            i += 8
        }
        let worst = zip(got, want).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst < 1e-5, "largest difference \(worst)")
    }

    @Test("blocks and single samples share one state")
    func mixedStepsShareState() {
        let x = signal(1000)
        let want = reference(x, rate: 48000)
        var filter = HighPassCascade(cutoff: 700, sampleRate: 48000)
        var got: [Float] = []
        var i = 0
        while i < x.count {
            // 3 single samples, then a block of 8, and so on: the state must carry across both paths.
            if (i / 11) % 2 == 0 || i + 8 > x.count {
                got.append(filter.process(x[i]))
                i += 1
            } else {
                let block = filter.process(SIMD8(x[i..<(i + 8)]))
                got += (0..<8).map { block[$0] }
                i += 8
            }
        }
        let worst = zip(got, want).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst < 1e-5, "largest difference \(worst)")
    }
}
