/// Onset strength per hop: the log-power rise of each band bin above both the previous non-overlapping frame
/// (maximum over the bin and its two neighbours, so gliding voice and music partials do not count) and its own
/// running background plus a gate, summed over the band.
///
/// Working in log power against each bin's own floor makes the function independent of level and of automatic
/// gain, and blind to steady noise, music sustain and the slow build-up of speech. All storage is allocated
/// in `init`; `update` allocates nothing.
struct SpectralFlux {
    /// Per-bin background: running mean of log power while no impact is sounding.
    let background: UnsafeMutablePointer<Float>
    private let history: UnsafeMutablePointer<Float>   // `lag + 1` rows of log power, a ring of hops
    private let rows: Int
    /// Bins with a background (the classifier's range); the flux sums the `band` subset.
    let bins: ClosedRange<Int>
    private let band: Range<Int>
    /// The racket sub-band (offsets into `bins`), summed separately: see `racketFlux`.
    private let racketBand: Range<Int>
    /// This hop's flux summed over the racket sub-band only (valid after `update`).
    private(set) var racketFlux: Float = 0
    private let count: Int
    private var row = 0
    private let gate: Float
    private let warmUpHops: Int
    private var warmHops = 0

    /// `warmUpHops`: hops spent learning the background (plain mean) before the flux is reported.
    /// `lag`: hops back to the reference frame (a frame length, so the two do not overlap).
    init(bins: ClosedRange<Int>, band: ClosedRange<Int>, racketBand: ClosedRange<Int>, gate: Float, warmUpHops: Int,
         lag: Int) {
        self.warmUpHops = max(1, warmUpHops)
        self.rows = lag + 1
        self.bins = bins
        self.count = bins.count
        self.band = (band.lowerBound - bins.lowerBound)..<(band.upperBound - bins.lowerBound + 1)
        self.racketBand = (racketBand.lowerBound - bins.lowerBound)..<(racketBand.upperBound - bins.lowerBound + 1)
        self.gate = gate
        background = .allocate(capacity: count)
        background.initialize(repeating: -30, count: count)
        history = .allocate(capacity: rows * count)
        history.initialize(repeating: -30, count: rows * count)
    }

    func deallocate() {
        background.deallocate()
        history.deallocate()
    }

    /// Computes this hop's flux from the FFT output; adapts the background with weight `adapt` (0 = frozen).
    mutating func update(_ fft: RealFFT, adapt: Float) -> Float {
        let current = history + row * count
        let older = history + ((row + 1) % rows) * count   // written `lag` hops ago (rows advance by one)
        var flux: Float = 0
        var racket: Float = 0
        let lower = bins.lowerBound
        // The first hops only learn the background, as a plain running mean.
        let learning = warmHops < warmUpHops
        let rate = learning ? Float(1) / Float(warmHops + 1) : adapt
        for i in 0..<count {
            let level = fastLog(fft.power(lower + i) + 1e-10)
            current[i] = level
            if band.contains(i) {
                let previous = max(older[i], max(older[max(i - 1, 0)], older[min(i + 1, count - 1)]))
                let rise = max(0, level - max(previous, background[i] + gate))
                flux += rise
                if racketBand.contains(i) { racket += rise }
            }
            // Clamp the step so one loud hop cannot drag the floor up.
            background[i] += rate * (min(level, background[i] + 3) - background[i])
        }
        row = (row + 1) % rows
        warmHops += 1
        racketFlux = learning ? 0 : racket
        return learning ? 0 : flux
    }
}

/// Running mean and mean absolute deviation of the flux, frozen while an impact sounds.
struct FluxStatistics {
    private(set) var mean: Float = 0
    private(set) var deviation: Float = 0

    /// Adds one hop's flux with EMA weight `rate`, clamped so outliers move the statistics slowly.
    mutating func add(_ flux: Float, rate: Float) {
        let clamped = min(flux, mean + 4 * deviation + 1)
        mean += rate * (clamped - mean)
        deviation += rate * (abs(clamped - mean) - deviation)
    }

    /// The adaptive trigger level.
    func threshold(deviations: Float, minimum: Float) -> Float {
        max(minimum, mean + deviations * deviation)
    }
}
