/// The detector's input high-pass: two Butterworth biquads in cascade (a fourth-order high-pass), run eight samples
/// at a time as one linear state-space step.
///
/// Sample by sample the cascade is a chain of dependent multiply-adds (each output waits for the last one), which
/// cost the detector a sixth of its time. The same filter over a block of eight is `y = Yₛ·s + Yₓ·x` and
/// `s' = Sₛ·s + Sₓ·x` for the four-value state `s` (each biquad's two transposed-direct-form delays): 24 vector
/// multiply-adds with short dependencies, the matrices worked out once in `init` by running the biquads in `Double`.
/// `process(_:)` of one sample runs the biquads themselves on the same state, so blocks and single samples mix
/// freely. Allocation-free. The matrices are stored inline, so the copy the detector takes per chunk copies them
/// too: kept so, because the same matrices in heap storage measured slower (Benchmarks' 20 ms chunk 8.95 → 9.36 µs:
/// the block step then reloads them each time).
struct HighPassCascade {
    private var first: Biquad, second: Biquad
    /// The block matrices by column: the eight outputs, or the next state, for a unit state value or input sample.
    private let outputFromState: InlineArray<4, SIMD8<Float>>
    private let stateFromState: InlineArray<4, SIMD4<Float>>
    private let outputFromInput: InlineArray<8, SIMD8<Float>>
    private let stateFromInput: InlineArray<8, SIMD4<Float>>

    /// Two Butterworth high-passes at `cutoff` Hz in cascade.
    init(cutoff: Double, sampleRate: Int) {
        first = .highPass(cutoff: cutoff, sampleRate: sampleRate)
        second = first
        var ys = InlineArray<4, SIMD8<Float>>(repeating: .zero), ss = InlineArray<4, SIMD4<Float>>(repeating: .zero)
        var yx = InlineArray<8, SIMD8<Float>>(repeating: .zero), sx = InlineArray<8, SIMD4<Float>>(repeating: .zero)
        for column in 0..<12 {
            var s = SIMD4<Double>()
            if column < 4 { s[column] = 1 }
            var y = SIMD8<Float>()
            for k in 0..<8 { y[k] = Float(Self.step(first, second, &s, column == 4 + k ? 1 : 0)) }
            let next = SIMD4<Float>(s)
            if column < 4 { (ys[column], ss[column]) = (y, next) } else { (yx[column - 4], sx[column - 4]) = (y, next) }
        }
        (outputFromState, stateFromState, outputFromInput, stateFromInput) = (ys, ss, yx, sx)
    }

    /// One sample of the cascade in `Double` on state `s` (z1, z2 of each biquad): the block matrices' source.
    private static func step(_ a: Biquad, _ b: Biquad, _ s: inout SIMD4<Double>, _ x: Double) -> Double {
        let ca = a.coefficients, cb = b.coefficients
        let ya = ca.b0 * x + s[0]
        (s[0], s[1]) = (ca.b1 * x - ca.a1 * ya + s[1], ca.b2 * x - ca.a2 * ya)
        let yb = cb.b0 * ya + s[2]
        (s[2], s[3]) = (cb.b1 * ya - cb.a1 * yb + s[3], cb.b2 * ya - cb.a2 * yb)
        return yb
    }

    /// Filters one sample.
    @inline(__always)
    mutating func process(_ x: Float) -> Float {
        second.process(first.process(x))
    }

    /// Filters eight consecutive samples.
    @inline(__always)
    mutating func process(_ x: SIMD8<Float>) -> SIMD8<Float> {
        let s = SIMD4(first.state.0, first.state.1, second.state.0, second.state.1)
        var y = outputFromState[0] * s[0] + outputFromState[1] * s[1]
        y += outputFromState[2] * s[2] + outputFromState[3] * s[3]
        var next = stateFromState[0] * s[0] + stateFromState[1] * s[1]
        next += stateFromState[2] * s[2] + stateFromState[3] * s[3]
        for j in 0..<8 {
            y += outputFromInput[j] * x[j]
            next += stateFromInput[j] * x[j]
        }
        first.state = (next[0], next[1])
        second.state = (next[2], next[3])
        return y
    }
}
