/// The stream's own balls as waveform templates: a candidate that sounds like this ball struck again is a ball,
/// whatever its level.
///
/// A ball's first milliseconds are a fixed waveform (a shell's and a table's modes, struck the same way), pitched a
/// few per cent up or down by where and how hard it is struck. Under babble at 0 dB the onset's band energies drown,
/// but the waveform does not: correlated against a template of the same ball, after both are whitened by what the
/// room sounded like just before (a linear predictor of the last `fitLength` samples: babble and hum are what it
/// predicts), a faint ball still stands out (offline, `detectability.py --learned`: 0 dB rallies 0.80 → 0.86).
///
/// Templates are learned from the stream's own clear reports (the detector chooses which), each stored whitened and
/// normalised; a window is scored by its best cosine with any of them over ±`lag` samples and `rates` playback rates
/// — the window, not the template, resampled at each rate (a ball struck 3 % higher is the template played 3 % faster,
/// so the window played 3 % slower matches it), so a template is stored once. Coarse to fine, to keep the cost per
/// candidate small: every template at rate 1 every `coarseStep` lags, then the best `refine` templates at every rate
/// around the best lag. The stream's *reference* is the median of the
/// templates' own scores against the ones before them: what this ball in this room scores against itself, so a
/// gate relative to it carries from a quiet room to a loud one. Fixed storage: nothing is allocated after `init`.
final class BallTemplates {
    /// Samples of a template: `lead` before the onset, the rest after it.
    let length: Int
    let lead: Int
    /// Lag searched on either side of the onset (samples).
    let lag: Int
    /// Templates kept (the most recent).
    let capacity: Int
    let rates: [Double]
    /// Where rate 1 lies in `rates` (the coarse search's rate).
    private let unitRate: Int
    /// Templates rescored at every rate around the best lag.
    let refine = 3
    /// The coarse search's lag step (samples); the fine one covers the gaps.
    let coarseStep = 4
    private let whitener: RingPredictor
    private let whitenerFit: Int
    /// capacity × length, each row unit-norm.
    private let bank: UnsafeMutablePointer<Float>
    private let selfScores: UnsafeMutablePointer<Float>
    private let sortScratch: UnsafeMutablePointer<Float>
    /// The whitened window: `length + 2 × lag` samples, plus what resampling at the widest rate reaches on either side.
    private let window: UnsafeMutablePointer<Float>
    private let windowLength: Int
    private let reach: Int
    /// The window resampled at each rate (rates × `span`, `span` = `length + 2 × lag`: every lag's samples), and the
    /// running energy of each (prefix sums, rates × (`span` + 1)) for each lag's norm.
    private let resampled: UnsafeMutablePointer<Float>
    private let energy: UnsafeMutablePointer<Float>
    private let span: Int
    /// Where each resampled sample lies in `window` (rates × `span`): the sample before it and the fraction past it.
    private let sourceIndex: UnsafeMutablePointer<Int32>
    private let sourceFraction: UnsafeMutablePointer<Float>
    private let bestTemplates: UnsafeMutablePointer<Int>
    private let bestCosines: UnsafeMutablePointer<Float>
    private(set) var stored = 0
    private var next = 0
    private var scored = 0
    /// The median of the self-scores kept, recomputed when one is added.
    private var median: Float = 0

    /// The rates a window is matched at (`DetectorParameters.templateRateSpread`, `templateRateSteps`): a ball struck
    /// elsewhere rings a few per cent higher or lower.
    /// (A spread is kept within 0…0.5, a rate of 0 or less being no playback rate, and steps within 0…16: each rate
    /// holds a resampled window per stream.)
    static func rates(spread: Double, steps: Int) -> [Double] {
        let steps = min(max(0, steps), 16), spread = min(max(spread, 0), 0.5)
        return (-steps...steps).map { 1 + spread * Double($0) / Double(max(steps, 1)) }
    }

    /// `capacity` templates of `length` samples (`lead` before the onset) at `rates`, searched over ±`lag`, whitened
    /// by a predictor fitted on the `fitLength` samples before each window.
    init(capacity: Int, length: Int, lead: Int, lag: Int, rates: [Double], fitLength: Int) {
        self.capacity = max(1, capacity)
        self.length = max(8, length)
        self.lead = max(0, lead)
        self.lag = max(0, lag)
        self.rates = rates.isEmpty ? [1] : rates
        unitRate = self.rates.firstIndex(of: 1) ?? self.rates.count / 2
        let slowest = min(self.rates.min() ?? 1, 1)
        // The resampled window reads (k − lag − lead) / rate from the onset for k < length + 2 × lag: at the slowest
        // rate that reaches this much past the window's own span (and one sample more for the interpolation).
        reach = Int((Double(self.length + self.lag) * (1 / slowest - 1)).rounded(.up)) + 2
        span = self.length + 2 * self.lag
        windowLength = span + 2 * reach
        whitener = RingPredictor(order: 16, fitLength: fitLength)
        whitenerFit = fitLength
        bank = .allocate(capacity: self.capacity * self.length)
        bank.initialize(repeating: 0, count: self.capacity * self.length)
        resampled = .allocate(capacity: self.rates.count * span)
        resampled.initialize(repeating: 0, count: self.rates.count * span)
        sourceIndex = .allocate(capacity: self.rates.count * span)
        sourceFraction = .allocate(capacity: self.rates.count * span)
        let onsetIndex = Double(reach + self.lag + self.lead)
        for (r, rate) in self.rates.enumerated() {
            for k in 0..<span {
                let position = onsetIndex + Double(k - self.lag - self.lead) / rate
                let base = position.rounded(.down)
                (sourceIndex + r * span + k).initialize(to: Int32(base))
                (sourceFraction + r * span + k).initialize(to: Float(position - base))
            }
        }
        selfScores = .allocate(capacity: self.capacity)
        selfScores.initialize(repeating: 0, count: self.capacity)
        sortScratch = .allocate(capacity: self.capacity)
        sortScratch.initialize(repeating: 0, count: self.capacity)
        window = .allocate(capacity: windowLength)
        window.initialize(repeating: 0, count: windowLength)
        energy = .allocate(capacity: self.rates.count * (span + 1))
        energy.initialize(repeating: 0, count: self.rates.count * (span + 1))
        bestTemplates = .allocate(capacity: refine)
        bestTemplates.initialize(repeating: 0, count: refine)
        bestCosines = .allocate(capacity: refine)
        bestCosines.initialize(repeating: 0, count: refine)
    }

    deinit {
        whitener.deallocate()
        bank.deallocate()
        selfScores.deallocate()
        sortScratch.deallocate()
        window.deallocate()
        resampled.deallocate()
        sourceIndex.deallocate()
        sourceFraction.deallocate()
        energy.deallocate()
        bestTemplates.deallocate()
        bestCosines.deallocate()
    }

    /// The detector's templates as `parameters` set them (`DetectorParameters.templateCount` and the rest); nil when
    /// they are off.
    convenience init?(parameters: DetectorParameters) {
        guard parameters.templateCount > 0 else { return nil }
        self.init(capacity: parameters.templateCount, length: parameters.samples(parameters.templateLengthSeconds),
                  lead: parameters.samples(parameters.templateLeadSeconds),
                  lag: parameters.samples(parameters.templateLagSeconds),
                  rates: Self.rates(spread: parameters.templateRateSpread, steps: parameters.templateRateSteps),
                  fitLength: parameters.samples(parameters.templateFitSeconds))
    }

    /// Samples a window reads before its onset: the whitening fit, the lead, the lag and the resampling's reach.
    var before: Int { whitenerFit + lead + lag + reach }

    /// Samples a window reads after its onset: the decision must come no earlier.
    var after: Int { length - lead + lag + reach }

    /// The median of the templates' own scores against the templates before them, once `minimum` have one.
    func reference(minimum: Int) -> Float? {
        min(scored, capacity) >= max(1, minimum) ? median : nil
    }

    /// The best cosine of the window at `onset` (the high-passed `ring`, which must hold `onset + after`) with any
    /// template, rate and lag; nil with no template yet or a degenerate fit.
    func match(at onset: Int64, ring: SampleRing) -> Float? {
        guard stored > 0, whiten(at: onset, ring: ring) else { return nil }
        return best()
    }

    /// Learns the window at `onset` as the newest template (first scoring it against the ones before it, for the
    /// reference); the oldest is forgotten once `capacity` are kept.
    func learn(at onset: Int64, ring: SampleRing) {
        guard whiten(at: onset, ring: ring) else { return }
        if stored > 0 {
            selfScores[scored % capacity] = best()
            scored += 1
            let count = min(scored, capacity)
            for i in 0..<count { sortScratch[i] = selfScores[i] }
            var sorted = UnsafeMutableBufferPointer(start: sortScratch, count: count)
            sorted.sort()
            median = count % 2 == 1 ? sortScratch[count / 2] : 0.5 * (sortScratch[count / 2 - 1] + sortScratch[count / 2])
        }
        // The window's samples at the onset's own alignment (lag 0), at rate 1.
        let row = bank + next * length
        let aligned = window + reach + lag
        var norm: Float = 0
        for i in 0..<length {
            row[i] = aligned[i]
            norm += aligned[i] * aligned[i]
        }
        let scale = norm > 0 ? 1 / norm.squareRoot() : 0
        for i in 0..<length { row[i] *= scale }
        next = (next + 1) % capacity
        stored = min(stored + 1, capacity)
    }

    /// Whitens the window around `onset` into `window`, resamples it at each rate into `resampled` (sample k at
    /// (k − lag − lead) / rate from the onset) and keeps each one's running energy in `energy`.
    private func whiten(at onset: Int64, ring: SampleRing) -> Bool {
        let start = onset - Int64(lead + lag + reach)
        guard whitener.whiten(ring, fitEnd: start, from: start, count: windowLength, into: window) else { return false }
        for r in 0..<rates.count {
            let out = resampled + r * span
            let sums = energy + r * (span + 1)
            let index = sourceIndex + r * span, fraction = sourceFraction + r * span
            sums[0] = 0
            for k in 0..<span {
                let base = Int(index[k])
                let value = window[base] + fraction[k] * (window[base + 1] - window[base])
                out[k] = value
                sums[k + 1] = sums[k] + value * value
            }
        }
        return true
    }

    /// The best cosine over templates, rates and lags: every template at rate 1 every `coarseStep` lags, then the best
    /// `refine` at every rate on every lag near their best.
    private func best() -> Float {
        for i in 0..<refine { bestTemplates[i] = -1; bestCosines[i] = -.infinity }
        var bestLag = 0
        for t in 0..<stored {
            let row = bank + t * length
            var top: Float = -.infinity, topLag = 0
            var shift = -lag
            // Two lags at a time (the template loaded once for both), then the last one alone.
            while shift + coarseStep <= lag {
                let (c0, c1) = cosines(row, rate: unitRate, at: shift, shift + coarseStep)
                if c0 > top { (top, topLag) = (c0, shift) }
                if c1 > top { (top, topLag) = (c1, shift + coarseStep) }
                shift += 2 * coarseStep
            }
            if shift <= lag {
                let c = cosine(row, rate: unitRate, at: shift)
                if c > top { (top, topLag) = (c, shift) }
            }
            insert(t, top)
            if bestTemplates[0] == t { bestLag = topLag }
        }
        var result = bestCosines[0]
        for k in 0..<refine where bestTemplates[k] >= 0 {
            let row = bank + bestTemplates[k] * length
            for r in 0..<rates.count {
                for shift in max(-lag, bestLag - coarseStep)...min(lag, bestLag + coarseStep) {
                    result = max(result, cosine(row, rate: r, at: shift))
                }
            }
        }
        return result
    }

    /// Keeps the `refine` best templates by their rate-1 score.
    private func insert(_ template: Int, _ score: Float) {
        guard score > bestCosines[refine - 1] else { return }
        var k = refine - 1
        while k > 0 && bestCosines[k - 1] < score {
            bestCosines[k] = bestCosines[k - 1]
            bestTemplates[k] = bestTemplates[k - 1]
            k -= 1
        }
        bestCosines[k] = score
        bestTemplates[k] = template
    }

    /// `cosine(row, rate:, at: first)` and `cosine(row, rate:, at: second)`, bit for bit, in one pass over `row`.
    @inline(__always)
    private func cosines(_ row: UnsafeMutablePointer<Float>, rate: Int, at first: Int, _ second: Int) -> (Float, Float) {
        let window = resampled + rate * span + lag
        let (dot0, dot1) = dotProducts(window + first, window + second, row, count: length)
        return (normalised(dot0, rate: rate, at: first), normalised(dot1, rate: rate, at: second))
    }

    /// A dot product over `length` samples from `shift` divided by the window's norm there (0 where it is silent).
    @inline(__always)
    private func normalised(_ dot: Float, rate: Int, at shift: Int) -> Float {
        let sums = energy + rate * (span + 1)
        let segment = sums[lag + shift + length] - sums[lag + shift]
        return segment > 0 ? dot / segment.squareRoot() : 0
    }

    /// The cosine of a unit-norm template row with the window resampled at `rates[rate]`, its `length` samples
    /// starting `shift` from the onset's alignment.
    @inline(__always)
    private func cosine(_ row: UnsafeMutablePointer<Float>, rate: Int, at shift: Int) -> Float {
        normalised(dotProduct(resampled + rate * span + lag + shift, row, count: length), rate: rate, at: shift)
    }
}
