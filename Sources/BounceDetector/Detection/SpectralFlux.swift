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
    fileprivate let band: Range<Int>
    /// The racket sub-band (offsets into `bins`), summed separately: see `racketFlux`.
    fileprivate let racketBand: Range<Int>
    /// This hop's flux summed over the racket sub-band only (valid after `update`).
    private(set) var racketFlux: Float = 0
    fileprivate let count: Int
    private var row = 0
    fileprivate let gate: Float
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
        let lower = bins.lowerBound
        // The first hops only learn the background, as a plain running mean.
        let learning = warmHops < warmUpHops
        let rate = learning ? Float(1) / Float(warmHops + 1) : adapt
        // Log power, eight bins at a time.
        fft.powers(from: lower, count: count, into: current)
        var i = 0
        while i + 8 <= count {
            UnsafeMutableRawPointer(current + i).storeBytes(of: fastLog(loadEight(current + i) + 1e-10),
                                                            as: SIMD8<Float>.self)
            i += 8
        }
        while i < count {
            current[i] = fastLog(current[i] + 1e-10)
            i += 1
        }
        // Each band bin's rise over its reference (the older frame's bin and neighbours) and its floor plus the
        // gate, eight bins at a time while the right neighbour lies in range; lanes summed at the end.
        var fluxLanes = SIMD8<Float>(), racketLanes = SIMD8<Float>()
        let racketLow = SIMD8<Int32>(repeating: Int32(racketBand.lowerBound))
        let racketHigh = SIMD8<Int32>(repeating: Int32(racketBand.upperBound))
        var flux: Float = 0
        var racket: Float = 0
        i = band.lowerBound
        if i == 0, i < band.upperBound {  // bin 0 has no left neighbour
            addRise(at: i, current: current, older: older, flux: &flux, racket: &racket)
            i += 1
        }
        while i + 8 <= band.upperBound, i + 8 < count {
            let previous = lanesMax(loadEight(older + i), lanesMax(loadEight(older + i - 1), loadEight(older + i + 1)))
            let rise = lanesMax(SIMD8(), loadEight(current + i) - lanesMax(previous, loadEight(background + i) + gate))
            fluxLanes += rise
            let bin = SIMD8<Int32>(repeating: Int32(i)) &+ Self.laneIndex
            racketLanes += rise.replacing(with: 0, where: (bin .< racketLow) .| (bin .>= racketHigh))
            i += 8
        }
        while i < band.upperBound {
            addRise(at: i, current: current, older: older, flux: &flux, racket: &racket)
            i += 1
        }
        flux += fluxLanes.sum()
        racket += racketLanes.sum()
        // Clamp the step so one loud hop cannot drag the floor up.
        i = 0
        while i + 8 <= count {
            let floor = loadEight(background + i)
            let level = loadEight(current + i)
            let moved = floor + rate * (lanesMin(level, floor + 3) - floor)
            UnsafeMutableRawPointer(background + i).storeBytes(of: moved, as: SIMD8<Float>.self)
            i += 8
        }
        while i < count {
            background[i] += rate * (min(current[i], background[i] + 3) - background[i])
            i += 1
        }
        row = (row + 1) % rows
        warmHops += 1
        racketFlux = learning ? 0 : racket
        return learning ? 0 : flux
    }
}

extension SpectralFlux {
    /// 0…7, a lane's offset from the first bin of its vector.
    fileprivate static let laneIndex = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)

    /// One band bin's rise, for the bins the eight-lane loop does not reach.
    @inline(__always)
    fileprivate func addRise(at i: Int, current: UnsafeMutablePointer<Float>, older: UnsafeMutablePointer<Float>,
                             flux: inout Float, racket: inout Float) {
        let previous = max(older[i], max(older[max(i - 1, 0)], older[min(i + 1, count - 1)]))
        let rise = max(0, current[i] - max(previous, background[i] + gate))
        flux += rise
        if racketBand.contains(i) { racket += rise }
    }
}

// Not the standard library's `pointwiseMax`/`pointwiseMin`: the same results here, but they go lane by lane, and the
// whole detector took 0.55 s instead of 0.37 s on the 600 s file (BENCHMARKS.md, 2026-11-26).
@inline(__always)
private func lanesMax(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a.replacing(with: b, where: a .< b) }

@inline(__always)
private func lanesMin(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a.replacing(with: b, where: b .< a) }

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
