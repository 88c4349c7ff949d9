import Foundation

/// How an onset rises in each of seven bands from 700 Hz to 10 kHz: the impact's attack measured where the impact
/// is, and how broadband its start is.
///
/// *Attack in its own bands.* A room's noise and a ball's energy sit in different places: babble fills 1–3 kHz, a
/// bounce rings at 2–8 kHz, a racket hit at 1–4 kHz. Measured over the whole band, a faint ball in a loud room
/// barely clears the noise (its first milliseconds are diluted by the bands it does not excite); measured per band,
/// it clears it by 5–6 dB more in the bands it rings in. A struck object excites at least two bands (several shell
/// or rubber modes, or a mode and its noise burst), so the attack is the *second* highest band rise: one band
/// rising by chance (a voice's formant, a note) does not make an attack.
///
/// *Broadband start.* A struck shell or racket excites every band it has modes in within its first millisecond; a
/// voiced syllable or a music note grows its partials band by band. `risingBands` counts the bands that rise by a
/// margin in the first 1.5 ms.
///
/// Each band is two cascaded band-pass sections; the seven bands run side by side in SIMD lanes over the raw signal
/// from 25 ms before the onset (settling) to 2.5 ms after it. A band's rise is its mean power in the first 1.5 or
/// 2.5 ms after the onset over its mean power 15…3 ms before it (clear of codec pre-echo; 12 ms, so that the room's
/// level in a narrow band is a steady estimate). Fixed storage; `measure` allocates nothing.
struct OnsetBands {
    static let edges: [Double] = [700, 1000, 1500, 2000, 3000, 4000, 6000, 10_000]

    /// The bands (Hz) that fit under 0.45 × `sampleRate`: a band is kept when its lower edge lies well under that
    /// limit, and its upper edge is clamped to it (7 bands at 44.1 kHz and up). `BandRise` sums FFT bins over the same.
    static func bands(sampleRate: Int) -> [(low: Double, high: Double)] {
        let top = 0.45 * Double(sampleRate)
        return (0..<(edges.count - 1)).filter { edges[$0] * 1.2 < top }.map { (edges[$0], min(edges[$0 + 1], top)) }
    }

    /// Rises (dB) per band lane; lanes at and beyond `bands` are unused.
    struct Rises {
        /// Over the first 1.5 ms.
        var start: SIMD8<Float>
        /// Over the first 2.5 ms.
        var attack: SIMD8<Float>
        /// Each band's mean power over the first 2.5 ms, dB (the attack's spectral shape and level).
        var level = SIMD8<Float>(repeating: -.infinity)
        let bands: Int

        /// Bands whose first 1.5 ms rise by at least `dB`.
        func risingBands(atLeast dB: Float) -> Int {
            var count = 0
            for b in 0..<bands where start[b] >= dB { count += 1 }
            return count
        }

        /// The second highest band rise over the first 2.5 ms (the highest, with a single band).
        var attackDB: Float {
            var first = -Float.infinity, second = -Float.infinity
            for b in 0..<bands {
                let value = attack[b]
                if value > first { (first, second) = (value, first) } else if value > second { second = value }
            }
            return bands > 1 ? second : first
        }
    }

    /// Two band-pass sections per lane, transposed direct form II.
    private struct Section {
        var b0 = SIMD8<Float>(), b2 = SIMD8<Float>(), a1 = SIMD8<Float>(), a2 = SIMD8<Float>()
        var z1 = SIMD8<Float>(), z2 = SIMD8<Float>()

        mutating func set(lane: Int, _ c: Biquad.BandPassCoefficients) {
            (b0[lane], b2[lane], a1[lane], a2[lane]) = (c.b0, c.b2, c.a1, c.a2)
        }

        @inline(__always)
        mutating func process(_ x: SIMD8<Float>) -> SIMD8<Float> {
            let y = b0 * x + z1
            z1 = z2 - a1 * y   // b1 = 0 for a band-pass
            z2 = b2 * x - a2 * y
            return y
        }
    }

    /// Bands that fit under 0.45 × the sample rate (7 at 44.1 kHz and up).
    let bands: Int
    private let sampleRate: Int
    /// The room's level is measured from this long before the onset to 3 ms before it (see `init`).
    private let referenceSeconds: Double
    /// The filter bank at rest (coefficients, zero state), copied for each measurement.
    private let prototype: (Section, Section)

    /// `referenceSeconds`: where the room's level starts to be measured before the onset (it ends 3 ms before).
    init(sampleRate: Int, referenceSeconds: Double = 0.015) {
        self.sampleRate = sampleRate
        self.referenceSeconds = max(0.005, referenceSeconds)
        let ranges = Self.bands(sampleRate: sampleRate)
        bands = ranges.count
        var section = Section()
        for (lane, range) in ranges.enumerated() {
            section.set(lane: lane, Biquad.bandPassCoefficients(low: range.low, high: range.high,
                                                                sampleRate: sampleRate))
        }
        prototype = (section, section)
    }

    /// Each band's rise at `onset`; the ring must hold `onset - referenceSeconds - 10 ms ..< onset + 2.5 ms` (the
    /// first 10 ms settle the filters).
    func measure(at onset: Int64, raw: SampleRing) -> Rises {
        let ms = Double(sampleRate) / 1000
        let reference = referenceSeconds * 1000
        let start = onset - Int64(((reference + 10) * ms).rounded())
        let preStart = Int(onset - Int64((reference * ms).rounded()) - start)
        let preEnd = Int(onset - Int64((3 * ms).rounded()) - start)
        let onsetIndex = Int(onset - start)
        let startEnd = onsetIndex + max(1, Int((1.5 * ms).rounded()))
        let attackEnd = onsetIndex + max(1, Int((2.5 * ms).rounded()))
        var (first, second) = prototype
        let samples = raw.span(from: start)
        var pre = SIMD8<Float>(), early = SIMD8<Float>()
        for i in 0..<preStart { _ = second.process(first.process(SIMD8(repeating: samples[i]))) }
        for i in preStart..<preEnd {
            let y = second.process(first.process(SIMD8(repeating: samples[i])))
            pre += y * y
        }
        for i in preEnd..<onsetIndex { _ = second.process(first.process(SIMD8(repeating: samples[i]))) }
        for i in onsetIndex..<startEnd {
            let y = second.process(first.process(SIMD8(repeating: samples[i])))
            early += y * y
        }
        var late = early
        for i in startEnd..<attackEnd {
            let y = second.process(first.process(SIMD8(repeating: samples[i])))
            late += y * y
        }
        let tiny = SIMD8<Float>(repeating: 1e-20)
        let preMean = pre / Float(preEnd - preStart) + tiny
        let startRatio = (early / Float(startEnd - onsetIndex) + tiny) / preMean
        let attackRatio = (late / Float(attackEnd - onsetIndex) + tiny) / preMean
        var rises = Rises(start: SIMD8(repeating: -.infinity), attack: SIMD8(repeating: -.infinity), bands: bands)
        for b in 0..<bands {
            rises.start[b] = 10 * log10(startRatio[b])
            rises.attack[b] = 10 * log10(attackRatio[b])
            rises.level[b] = 10 * log10(late[b] / Float(attackEnd - onsetIndex) + 1e-20)
        }
        return rises
    }
}
