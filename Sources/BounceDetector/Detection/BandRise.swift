import Foundation

/// Onset strength per hop from band energies: how far the current frame's power in each of the seven onset bands
/// (`OnsetBands.edges`, 700 Hz – 10 kHz) rises over the same band's mean power in the frames just before it, and
/// the mean of the three largest rises, dB.
///
/// *Why a second view of the spectrum.* The per-bin log flux (`SpectralFlux`) needs a bin to clear its own
/// fluctuation: in babble a bin's power is exponentially distributed from frame to frame, so a faint impact that
/// doubles the power of every bin it touches (+3 dB) is lost under the gate in most of them. Summing the power of a
/// band's bins before taking the log averages that fluctuation out (a band of n bins is a χ² with 2n degrees of
/// freedom), so a faint but broadband rise stands out where no single bin does. Three bands, because a struck
/// shell or racket excites every band it has modes in at once (`ImpactDetector`'s racket rules use the same three);
/// a voice's formant or a note's partial lifts one.
///
/// The reference is the mean of the frames that end 8–16 ms before the current one (`referenceLags`): clear of the
/// current frame (5.3 ms long) and of codec pre-echo a few ms ahead of an onset, and long enough to be a steady
/// estimate. Fixed storage; `update` allocates nothing.
struct BandRise {
    /// Hops back to the newest and oldest frame of the reference.
    static let referenceLags = 6...12

    private let bands: Int
    /// Band b sums bins `bounds[b] ..< bounds[b + 1]`.
    private let bounds: UnsafeMutablePointer<Int>
    /// Eight floats of scratch (band sums, then ratios), written one by one and moved as one vector through raw
    /// loads and stores (a vector filled lane by lane in a register went through the stack for each lane).
    private let scratch: UnsafeMutablePointer<Float>
    /// This hop's power in each bin the bands span.
    private let binPowers: UnsafeMutablePointer<Float>
    /// The last `referenceLags.upperBound + 1` hops' band powers, a ring.
    private let history: UnsafeMutablePointer<SIMD8<Float>>
    private let rows: Int
    private var row = 0
    private var hops = 0
    private let warmUpHops: Int
    /// This hop's mean of the three largest band rises, dB (valid after `update`; −∞ during the warm-up).
    private(set) var strength: Float = -.infinity

    /// `warmUpHops`: hops before the first report (at least the reference's length).
    init(sampleRate: Int, fftSize: Int, warmUpHops: Int) {
        self.warmUpHops = max(warmUpHops, Self.referenceLags.upperBound + 1)
        let binHz = Double(sampleRate) / Double(fftSize)
        var edges: [Int] = []
        for band in OnsetBands.bands(sampleRate: sampleRate) {
            if edges.isEmpty { edges.append(Int((band.low / binHz).rounded(.up))) }
            let high = min(fftSize / 2, Int((band.high / binHz).rounded(.up)))
            edges.append(max(edges[edges.count - 1] + 1, high))
        }
        bands = edges.count - 1
        bounds = .allocate(capacity: edges.count)
        bounds.initialize(from: edges, count: edges.count)
        scratch = .allocate(capacity: 8)
        binPowers = .allocate(capacity: edges[edges.count - 1] - edges[0])
        binPowers.initialize(repeating: 0, count: edges[edges.count - 1] - edges[0])
        scratch.initialize(repeating: 0, count: 8)
        rows = Self.referenceLags.upperBound + 1
        history = .allocate(capacity: rows)
        history.initialize(repeating: SIMD8(repeating: 1e-20), count: rows)
    }

    func deallocate() {
        history.deallocate()
        bounds.deallocate()
        scratch.deallocate()
        binPowers.deallocate()
    }

    /// Reads this hop's band powers from the FFT output and updates `strength`.
    mutating func update(_ fft: RealFFT) {
        let lowest = bounds[0]
        fft.powers(from: lowest, count: bounds[bands] - lowest, into: binPowers)
        for b in 0..<bands {
            var sum: Float = 1e-20
            for k in bounds[b]..<bounds[b + 1] { sum += binPowers[k - lowest] }
            scratch[b] = sum
        }
        let power = UnsafeRawPointer(scratch).loadUnaligned(as: SIMD8<Float>.self)
        history[row] = power
        var reference = SIMD8<Float>.zero
        for lag in Self.referenceLags {
            let index = row - lag
            reference += history[index < 0 ? index + rows : index]
        }
        row = row + 1 == rows ? 0 : row + 1
        hops += 1
        guard hops > warmUpHops else { return }
        // Compare the ratios themselves; the mean of three rises in dB is one log of their product.
        UnsafeMutableRawPointer(scratch).storeBytes(
            of: power * Float(Self.referenceLags.count) / (reference + 1e-20), as: SIMD8<Float>.self)
        var first: Float = 0, second: Float = 0, third: Float = 0
        for b in 0..<bands {
            let value = scratch[b]
            if value > first { (first, second, third) = (value, first, second) }
            else if value > second { (second, third) = (value, second) }
            else if value > third { third = value }
        }
        let product = bands >= 3 ? first * second * third : first * first * first
        strength = 10 / 3 * 0.434_294_48 * fastLog(min(max(product, 1e-30), 1e30))
    }
}
