import Foundation

/// A second-order IIR section (transposed direct form II), designed once and run per sample.
struct Biquad {
    private var b0: Float, b1: Float, b2: Float, a1: Float, a2: Float
    private var z1: Float = 0, z2: Float = 0

    /// A Butterworth high-pass at `cutoff` Hz (RBJ cookbook, Q = 1/√2).
    static func highPass(cutoff: Double, sampleRate: Int) -> Biquad {
        let w0 = 2 * Double.pi * min(cutoff, 0.45 * Double(sampleRate)) / Double(sampleRate)
        let q = 1 / 2.0.squareRoot()
        let alpha = sin(w0) / (2 * q)
        let cosw = cos(w0)
        let a0 = 1 + alpha
        return Biquad(
            b0: Float((1 + cosw) / 2 / a0), b1: Float(-(1 + cosw) / a0), b2: Float((1 + cosw) / 2 / a0),
            a1: Float(-2 * cosw / a0), a2: Float((1 - alpha) / a0))
    }

    /// Normalised band-pass coefficients (a0 = 1; a band-pass has b1 = 0).
    struct BandPassCoefficients {
        var b0: Float, b2: Float, a1: Float, a2: Float
    }

    /// A band-pass from `low` to `high` Hz (RBJ cookbook, constant 0 dB peak gain at the geometric centre); b1 is 0.
    static func bandPassCoefficients(low: Double, high: Double, sampleRate: Int) -> BandPassCoefficients {
        let top = min(high, 0.45 * Double(sampleRate))
        let centre = (low * top).squareRoot()
        let w0 = 2 * Double.pi * centre / Double(sampleRate)
        let octaves = log2(top / low)
        let alpha = sin(w0) * sinh(log(2.0) / 2 * octaves * w0 / sin(w0))
        let a0 = 1 + alpha
        return BandPassCoefficients(b0: Float(alpha / a0), b2: Float(-alpha / a0),
                                    a1: Float(-2 * cos(w0) / a0), a2: Float((1 - alpha) / a0))
    }

    private init(b0: Float, b1: Float, b2: Float, a1: Float, a2: Float) {
        (self.b0, self.b1, self.b2, self.a1, self.a2) = (b0, b1, b2, a1, a2)
    }

    /// The two delays (z1, z2): what the filter remembers of the stream.
    var state: (Float, Float) {
        get { (z1, z2) }
        set { (z1, z2) = newValue }
    }

    /// The coefficients (a0 = 1), widened.
    var coefficients: (b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        (Double(b0), Double(b1), Double(b2), Double(a1), Double(a2))
    }

    /// Filters one sample.
    @inline(__always)
    mutating func process(_ x: Float) -> Float {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }
}
