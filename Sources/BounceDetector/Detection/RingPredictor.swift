import Foundation

/// Times an impact that rises out of the ring of the one before (a dropped ball's late bounces).
///
/// The ring of a struck ball and table is a sum of decaying resonances: from its last few milliseconds a linear
/// predictor (order `order`, fitted by Levinson–Durbin on a Hann-windowed stretch) predicts its next sample almost
/// exactly, and what it cannot predict is the room's noise. A new impact is new excitation: the prediction error
/// jumps from its first sample, even while the impact itself is still under the ring's amplitude, where the
/// refiner's sample-level rule (a multiple of the ring's RMS) only sees it a cycle or two later. Preallocated once;
/// `onset` allocates nothing.
struct RingPredictor {
    /// Prediction order: a few resonances (two coefficients each) and the high-pass's own poles.
    let order: Int
    /// Samples the predictor is fitted on (ending where the search starts).
    let fitLength: Int
    private let segment: UnsafeMutablePointer<Float>
    private let hann: UnsafeMutablePointer<Float>
    /// Autocorrelation, coefficients and Levinson–Durbin's scratch (order + 1 each).
    private let correlation: UnsafeMutablePointer<Float>
    private let coefficients: UnsafeMutablePointer<Float>
    private let scratch: UnsafeMutablePointer<Float>
    /// `coefficients[order…1]`: the oldest sample's first, as the samples lie in memory.
    private let reversed: UnsafeMutablePointer<Float>

    /// Allocates the buffers; call `deallocate()` when done. A fit shorter than `order` + 1 samples (a retune's
    /// nonsense, even a negative one) is that long: fewer samples cannot fit the predictor.
    init(order: Int, fitLength: Int) {
        self.order = order
        self.fitLength = max(fitLength, order + 1)
        segment = .allocate(capacity: self.fitLength)
        hann = .allocate(capacity: self.fitLength)
        for i in 0..<self.fitLength {
            let s = Float.pi * Float(i) / Float(self.fitLength)
            hann[i] = sin(s) * sin(s)
        }
        correlation = .allocate(capacity: order + 1)
        coefficients = .allocate(capacity: order + 1)
        scratch = .allocate(capacity: order + 1)
        reversed = .allocate(capacity: order)
        reversed.initialize(repeating: 0, count: order)
    }

    func deallocate() {
        segment.deallocate()
        hann.deallocate()
        correlation.deallocate()
        coefficients.deallocate()
        scratch.deallocate()
        reversed.deallocate()
    }

    /// The first window of `window` samples, starting in `[from, end - window]`, whose prediction-error power
    /// exceeds `factor`² × the error's power over the `fitLength` samples before `from` (the predictor's own fit);
    /// the onset is half a window into it. Nil if the error never rises so far (or the fit is degenerate).
    func onset(in ring: SampleRing, from: Int64, end: Int64, window: Int, factor: Float) -> Int64? {
        guard let fitError = prepare(ring, before: from) else { return nil }
        let threshold = factor * factor * fitError * Float(window)
        guard threshold > 0 else { return nil }
        var sum: Float = 0
        var n = from
        while n < end {
            let e = error(ring, at: n)
            sum += e * e
            if n - from >= Int64(window) {
                let old = error(ring, at: n - Int64(window))
                sum -= old * old
            }
            if n - from + 1 >= Int64(window), sum > threshold { return n - Int64(window) + 1 + Int64(window / 2) }
            n += 1
        }
        return nil
    }

    /// The change point of the prediction error in `[from, end)` by Page's CUSUM: the running sum of each sample's
    /// error power over the fit's, less `drift`, floored at zero, first exceeds `alarm`; the onset is the sample after
    /// the sum last stood at zero. A faint strike under the ring lifts the error to 2–4 × the fit's for a
    /// millisecond or two: no single short window clears a fixed multiple, but the excess summed from its first
    /// sample does, and the sum's last zero is where the excess began. Nil if the sum never reaches `alarm`.
    func changePoint(in ring: SampleRing, from: Int64, end: Int64, drift: Float, alarm: Float,
                     cap: Float = .infinity) -> Int64? {
        guard let fitError = prepare(ring, before: from) else { return nil }
        guard fitError > 0 else { return nil }
        let scale = 1 / fitError
        var sum: Float = 0
        var start = from
        var n = from
        while n < end {
            let e = error(ring, at: n)
            sum += min(e * e * scale, cap) - drift
            if sum <= 0 {
                sum = 0
                start = n + 1
            } else if sum > alarm {
                return start
            }
            n += 1
        }
        return nil
    }

    /// The prediction error's power over the `length` samples from `onset`, over the fit's own (fitted on the
    /// `fitLength` samples ending `lead` samples before `onset`), in dB: how much of a candidate the ring before it
    /// cannot explain. Nil if the fit is degenerate.
    func innovationDB(in ring: SampleRing, onset: Int64, lead: Int, length: Int) -> Float? {
        guard let fitError = prepare(ring, before: onset - Int64(lead)), fitError > 0, length > 0 else { return nil }
        var sum: Float = 0
        var n = onset
        while n < onset + Int64(length) {
            let e = error(ring, at: n)
            sum += e * e
            n += 1
        }
        return 10 * log10(max(sum / Float(length) / fitError, 1e-6))
    }

    /// Fits the predictor on the `fitLength` samples before `fitEnd`, then writes the prediction error of the `count`
    /// samples from `start` into `out`: those samples whitened by what came before them (a room's babble or hum is
    /// what the fit predicts; a new impact is not). False if the fit is degenerate.
    func whiten(_ ring: SampleRing, fitEnd: Int64, from start: Int64, count: Int, into out: UnsafeMutablePointer<Float>)
        -> Bool {
        guard prepare(ring, before: fitEnd, measuringFit: false) != nil else { return false }
        for i in 0..<count { out[i] = error(ring, at: start + Int64(i)) }
        return true
    }

    /// Fits the predictor on the `fitLength` samples before `from`; returns the fit's own mean error power (nil if
    /// the fit is degenerate; 1 without `measuringFit`, which only whitening needs not).
    private func prepare(_ ring: SampleRing, before from: Int64, measuringFit: Bool = true) -> Float? {
        let fitStart = from - Int64(fitLength)
        for i in 0..<fitLength { segment[i] = ring[fitStart + Int64(i)] * hann[i] }
        for lag in 0...order { correlation[lag] = dotProduct(segment, segment + lag, count: fitLength - lag) }
        guard correlation[0] > 0 else { return nil }
        correlation[0] *= 1.0001  // a touch of white noise keeps the recursion stable
        guard fit() else { return nil }
        for k in 0..<order { reversed[k] = coefficients[order - k] }
        guard measuringFit else { return 1 }
        var fitError: Float = 0
        var n = fitStart + Int64(order)
        while n < from {
            let e = error(ring, at: n)
            fitError += e * e
            n += 1
        }
        return fitError / Float(fitLength - order)
    }

    @inline(__always)
    private func error(_ ring: SampleRing, at n: Int64) -> Float {
        let past = ring.span(from: n - Int64(order))
        if order == 16 {
            // The 16 samples before n, oldest first, against the coefficients in the same order: one vector product.
            let x = UnsafeRawPointer(past).loadUnaligned(as: SIMD16<Float>.self)
            let a = UnsafeRawPointer(reversed).loadUnaligned(as: SIMD16<Float>.self)
            return past[16] - (x * a).sum()
        }
        var prediction: Float = 0
        for k in 0..<order { prediction += reversed[k] * past[k] }
        return past[order] - prediction
    }

    /// Levinson–Durbin: `coefficients[1...order]` predict x[n] as Σ a_j x[n − j]. False if the fit is unstable.
    private func fit() -> Bool {
        var power = correlation[0]
        for j in 0...order { coefficients[j] = 0 }
        for m in 1...order {
            var acc = correlation[m]
            for j in 1..<m { acc -= coefficients[j] * correlation[m - j] }
            let reflection = acc / power
            guard abs(reflection) < 1 else { return false }
            for j in 1..<m { scratch[j] = coefficients[j] - reflection * coefficients[m - j] }
            for j in 1..<m { coefficients[j] = scratch[j] }
            coefficients[m] = reflection
            power *= 1 - reflection * reflection
            guard power > 0 else { return false }
        }
        return true
    }
}
