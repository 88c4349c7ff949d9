import Foundation

/// What the classifier measures of a candidate impact, from the audio around its refined onset.
public struct ImpactFeatures: Sendable, Equatable {
    /// Energy of the onset frame above the background, dB (how clearly it stands out).
    public var snrDB: Float
    /// Centroid of that excess energy, Hz: table bounces ring at the ball's shell modes (2–8 kHz), racket hits
    /// are damped by the rubber (1–4 kHz plus a low thud).
    public var centroidHz: Float
    /// Share of the excess energy in the four strongest spectral peaks: struck objects ring at modes, claps,
    /// hi-hats and shuffles are noise.
    public var tonality: Float
    /// Share of the excess energy above 6.5 kHz: a hi-hat or cymbal has almost only that.
    public var highShare: Float
    /// Energy 6–8 ms after the onset relative to the loudest 1 ms of the first 5 ms, both less the pre-onset floor,
    /// dB (high-passed signal): impacts ring down from their peak, voices and squeaks hold or grow. Anchored on the
    /// peak, it stays right when codec pre-echo pulls the onset early.
    public var decayDB: Float
    /// How far the onset rises above the room just before it, dB: the second highest of seven bands' power over the
    /// first 2.5 ms against 15…3 ms before the onset (see `OnsetBands`).
    public var attackDB: Float
    /// How narrow the strongest peaks are: their power over the power three bins to either side, dB. A mode of
    /// the ball's shell is a resonance one Hann main lobe wide; a clap's band of noise is a broad hump.
    public var peakContrastDB: Float = 0
    /// Tonality of the frame from 2.7 to 8 ms after the onset: a ball's modes still ring there, a clap is noise.
    public var ringingTonality: Float = 0
    /// Peak contrast of that late frame, dB.
    public var ringingContrastDB: Float = 0
    /// Share of the onset frame's four strongest peaks (by energy) found again, within a bin, among the late frame's
    /// peaks: a resonance is a line that stays put; the peaks of a band of noise land anywhere in each frame.
    public var peakPersistence: Float = 0
    /// How exactly the onset's strongest peaks behave as free damped resonances, 0…1. Three frames a hop apart,
    /// starting at the onset: a bin holding one decaying mode gets the same complex factor e^{(iω − 1/τ)·hop} from
    /// each frame to the next (the window slides over the same exponential), so X₃·X₁ = X₂². Energy-weighted over
    /// the peaks, one minus |X₃X₁ − X₂²| / (|X₃||X₁| + |X₂|²): 1 for ringing modes, about ⅓ for a band of noise,
    /// whose phase and level wander at random from hop to hop. Independent of level, and of how damped a mode is.
    public var lineCoherence: Float = 0
    /// Bands (of seven) whose first 1.5 ms rise by the detector's `racketRiseDB` over 15…3 ms before the onset: a
    /// struck object excites every band it has modes in at once, a voice or a note grows band by band.
    public var risingBands: Int = 0
    /// The whole band's attack: the first 2.5 ms over 10…3 ms before the onset, high-passed signal, dB (diagnostic).
    public var wholeBandAttackDB: Float = 0
    /// Each onset band's power over the first 2.5 ms, dB (lanes past the rate's bands are −∞): the struck object's
    /// spectral fingerprint, which a ball bouncing again repeats, quieter.
    public var bandLevelsDB = SIMD8<Float>(repeating: -.infinity)
    /// Spectral flatness of the onset frame, 700 Hz – 10 kHz: the geometric over the arithmetic mean power, dB (≤ 0).
    /// A struck object's energy sits in its resonances with valleys between them (balls −20…−5 dB when they clear the
    /// room by 20 dB); a clap is a burst of noise that fills the band (white noise's periodogram: −2.5 dB). −∞ when
    /// not measured (features made by hand): no evidence of noise.
    public var flatnessDB: Float = -.infinity
    /// Share of the raw samples over the first 3 ms that sit at their loudest magnitude (within 1 %, at −20 dBFS or
    /// more; else 0). A ringing object peaks within 1 % of its crest a few samples a period (a sine: 4.5 %); a signal
    /// a phone's limiter or converter has pinned to its rail sits there for most of them. Clipping spreads a ball's
    /// lines into harmonics and holds its level: the timbre measures say little of a clipped onset.
    public var clippedShare: Float = 0
    /// Share of the 3 ms before the onset's last millisecond that sat at the same rail (`clippedShare`'s crest): a
    /// stretch already clipped, where the onset's clipping is no news.
    public var clippedBeforeShare: Float = 0

    /// Whether the onset clipped for at least `share` of its first 3 ms where the stretch before it clipped at most
    /// `1 / ratio` as often (`clippedShare`, `clippedBeforeShare`).
    func clipsAnew(share: Float, ratio: Float) -> Bool {
        share > 0 && clippedShare >= share && clippedBeforeShare * ratio <= clippedShare
    }

    public init(snrDB: Float, centroidHz: Float, tonality: Float, highShare: Float, decayDB: Float, attackDB: Float,
                peakContrastDB: Float = 0, ringingTonality: Float = 0, ringingContrastDB: Float = 0,
                peakPersistence: Float = 0, lineCoherence: Float = 0) {
        self.snrDB = snrDB
        self.centroidHz = centroidHz
        self.tonality = tonality
        self.highShare = highShare
        self.decayDB = decayDB
        self.attackDB = attackDB
        self.peakContrastDB = peakContrastDB
        self.ringingTonality = ringingTonality
        self.ringingContrastDB = ringingContrastDB
        self.peakPersistence = peakPersistence
        self.lineCoherence = lineCoherence
    }
}

/// Measures `ImpactFeatures` at a refined onset, using the detector's FFT and buffers (no allocation).
struct FeatureExtractor {
    let parameters: DetectorParameters
    let window: UnsafeMutablePointer<Float>
    let bands: OnsetBands

    /// Features of the impact starting at `onset`; the rings must hold the onset bands' reference and settling before
    /// the onset (`OnsetBands.measure`) up to `onset + decisionDelay`.
    func measure(onset: Int64, raw: SampleRing, highPassed: SampleRing, fft: RealFFT, flux: SpectralFlux)
        -> ImpactFeatures
    {
        let n = Int64(parameters.fftSize)
        // The attack frame centres its weight just after the onset; the late frame (+2.7 … +8 ms at 48 kHz) hears
        // what still rings once the impact's noise burst has faded. It ends at the decision point, the newest sample
        // there is at any rate (at 44.1 kHz a frame and a half is longer than the decision delay).
        let decision = onset + Int64(parameters.decisionDelay)
        let attack = spectrum(from: onset - n / 4, raw: raw, fft: fft, flux: flux)
        let ringing = spectrum(from: decision - n, raw: raw, fft: fft, flux: flux)

        // Levels in the high-passed signal. The floor is taken 10…3 ms before the onset, clear of codec pre-echo.
        let floor = Self.energy(highPassed, from: onset - Int64(parameters.samples(0.010)), count: parameters.samples(0.007))
        let early = Self.energy(highPassed, from: onset, count: parameters.samples(0.0025))
        let late = Self.energy(highPassed, from: onset + Int64(parameters.samples(0.006)), count: parameters.samples(0.002))
        let block = parameters.samples(0.001)
        var loudest: Float = 0
        for step in 0..<9 {  // 1 ms blocks every 0.5 ms over the first 5 ms
            loudest = max(loudest, Self.energy(highPassed, from: onset + Int64(step * block / 2), count: block))
        }
        let tiny: Float = 1e-20
        let coherence = lineCoherence(of: attack.peaks, end: decision, raw: raw, fft: fft)
        let rises = bands.measure(at: onset, raw: raw)
        let wholeBand = 10 * log10(max(early, tiny) / max(floor, tiny))
        var features = ImpactFeatures(
            snrDB: 10 * log10(max(attack.excess, tiny) / max(attack.background, tiny)),
            centroidHz: attack.centroidHz,
            tonality: attack.tonality,
            highShare: attack.highShare,
            decayDB: 10 * log10(max(late - floor, tiny + 1e-3 * loudest) / max(loudest - floor, tiny)),
            attackDB: parameters.bandAttack ? rises.attackDB : wholeBand,
            peakContrastDB: attack.contrastDB,
            ringingTonality: ringing.tonality,
            ringingContrastDB: ringing.contrastDB,
            peakPersistence: attack.peaks.persistence(in: ringing.peaks),
            lineCoherence: coherence)
        features.risingBands = rises.risingBands(atLeast: parameters.racketRiseDB)
        features.bandLevelsDB = rises.level
        features.wholeBandAttackDB = wholeBand
        features.flatnessDB = attack.flatnessDB
        (features.clippedShare, features.clippedBeforeShare) = Self.clippedShares(raw, onset: onset,
                                                                                 span: parameters.samples(0.003))
        return features
    }

    /// The least crest (−20 dBFS) that can be a rail (`clippedShare`).
    static let leastRail: Float = 0.1

    /// The phone's rail over `count` samples from `start`: 0.99 of their crest, nil under `leastRail` (a rail lies
    /// near full scale; under it a quiet sound's few quantisation steps would sit at its crest).
    static func rail(_ raw: SampleRing, from start: Int64, count: Int) -> Float? {
        var crest: Float = 0
        for i in 0..<Int64(max(count, 0)) { crest = max(crest, abs(raw[start + i])) }
        return crest >= leastRail ? 0.99 * crest : nil
    }

    /// A ring pinned to the rail stirs at its peaks; the next bounce drives it to the rail for milliseconds on end.
    /// Where, after `onset` and before `end`, a window of `span` samples first sits at the rail (`rail` of the whole
    /// stretch) `least` of the time and `rise` more often than the window at `onset` does, which itself sat there
    /// less than `least`: the densest window start within `span / 3` of that first one (the share climbs while the
    /// window slides into the clipped stretch; half a window on or a whole one did no better on the tuning drops).
    /// nil if none.
    static func denserClipping(_ raw: SampleRing, onset: Int64, end: Int64, span: Int, rise: Float,
                               least: Float) -> Int64? {
        guard span > 0, end - onset > Int64(span) + 1,
              let rail = rail(raw, from: onset, count: Int(end - onset)) else { return nil }
        @inline(__always) func atRail(_ i: Int64) -> Int { abs(raw[i]) >= rail ? 1 : 0 }
        var count = 0
        for i in 0..<Int64(span) { count += atRail(onset + i) }
        guard Float(count) < least * Float(span) else { return nil }
        let asked = max(least, Float(count) / Float(span) + rise) * Float(span)
        var start = onset
        var densest: (start: Int64, count: Int)?
        var first = Int64.max
        while start < end - Int64(span), start - first < Int64(span / 3) {
            count += atRail(start + Int64(span)) - atRail(start)
            start += 1
            if densest == nil, Float(count) >= asked { first = start }
            if start >= first, count > densest?.count ?? 0 { densest = (start, count) }
        }
        return densest?.start
    }

    /// See `ImpactFeatures.clippedShare` and `clippedBeforeShare`: over `span` samples from `onset`, and the `span`
    /// before the onset's last millisecond; both 0 under `leastRail`.
    static func clippedShares(_ raw: SampleRing, onset: Int64, span: Int) -> (after: Float, before: Float) {
        guard let rail = rail(raw, from: onset, count: span) else { return (0, 0) }
        var after = 0, before = 0
        let lead = Int64(span + span / 3)
        for i in 0..<span {
            if abs(raw[onset + Int64(i)]) >= rail { after += 1 }
            if abs(raw[onset - lead + Int64(i)]) >= rail { before += 1 }
        }
        return (Float(after) / Float(span), Float(before) / Float(span))
    }

    /// See `ImpactFeatures.lineCoherence`. Three frames a hop apart, the last ending at `end` (the decision point):
    /// at 48 kHz the first starts exactly at the onset (decisionDelay = 1.5 frames = a frame and two hops).
    private func lineCoherence(of peaks: TopPeaks, end: Int64, raw: SampleRing, fft: RealFFT) -> Float {
        let n = parameters.fftSize
        let hop = Int64(parameters.hop)
        let first = end - Int64(n) - 2 * hop
        // (re, im) of each peak bin in the three frames, kept in fixed-size tuples (no allocation).
        var bins: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) =
            (.zero, .zero, .zero, .zero, .zero, .zero)
        for step in 0..<3 {
            let frame = raw.span(from: first + Int64(step) * hop)
            for i in 0..<n { fft.input[i] = frame[i] * window[i] }
            fft.forward()
            var re = SIMD4<Float>.zero, im = SIMD4<Float>.zero
            for slot in 0..<TopPeaks.capacity where peaks.bin(slot) > 0 {
                re[slot] = fft.output[2 * peaks.bin(slot)]
                im[slot] = fft.output[2 * peaks.bin(slot) + 1]
            }
            switch step {
            case 0: bins.0 = re; bins.1 = im
            case 1: bins.2 = re; bins.3 = im
            default: bins.4 = re; bins.5 = im
            }
        }
        var weighted: Float = 0, total: Float = 0
        for slot in 0..<TopPeaks.capacity where peaks.bin(slot) > 0 {
            let (ar, ai) = (bins.0[slot], bins.1[slot])
            let (br, bi) = (bins.2[slot], bins.3[slot])
            let (cr, ci) = (bins.4[slot], bins.5[slot])
            // c·a − b²
            let dr = (cr * ar - ci * ai) - (br * br - bi * bi)
            let di = (cr * ai + ci * ar) - 2 * br * bi
            let scale = ((cr * cr + ci * ci) * (ar * ar + ai * ai)).squareRoot() + (br * br + bi * bi)
            guard scale > 0 else { continue }
            let error = min(1, (dr * dr + di * di).squareRoot() / scale)
            weighted += peaks.value(slot) * (1 - error)
            total += peaks.value(slot)
        }
        return total > 0 ? weighted / total : 0
    }

    /// Spectral shape of the frame starting at `start`, relative to the running per-bin background.
    private func spectrum(from start: Int64, raw: SampleRing, fft: RealFFT, flux: SpectralFlux) -> FrameSpectrum {
        let n = parameters.fftSize
        let frame = raw.span(from: start)
        for i in 0..<n { fft.input[i] = frame[i] * window[i] }
        fft.forward()

        let bins = flux.bins
        let binHz = Float(parameters.sampleRate) / Float(n)
        var excessTotal: Float = 0, backgroundTotal: Float = 0, weighted: Float = 0, high: Float = 0
        var peaks = TopPeaks()
        var previous: Float = 0, beforePrevious: Float = 0
        var logPower: Float = 0, power: Float = 0
        for k in bins {
            // exp(mean log power) is the geometric mean; × e^γ gives the mean power of noise.
            let floor = Float(exp(Double(flux.background[k - bins.lowerBound]))) * 1.781
            let excess = max(0, fft.power(k) - 2 * floor)
            logPower += fastLog(max(fft.power(k), 1e-30))
            power += fft.power(k)
            excessTotal += excess
            backgroundTotal += floor
            weighted += excess * Float(k) * binHz
            if Float(k) * binHz >= 6500 { high += excess }
            // `previous` is a local maximum: count it with its two neighbours (a Hann main lobe).
            if k > bins.lowerBound + 1, previous >= beforePrevious, previous > excess {
                peaks.insert(previous + beforePrevious + excess, bin: k - 1)
            }
            beforePrevious = previous
            previous = excess
        }
        var peakPower: Float = 0, flankPower: Float = 0
        for slot in 0..<TopPeaks.capacity where peaks.bin(slot) > 0 {
            let bin = peaks.bin(slot)
            peakPower += fft.power(bin)
            flankPower += 0.5 * (fft.power(max(bin - 3, 0)) + fft.power(min(bin + 3, n / 2)))
        }
        let total = max(excessTotal, 1e-20)
        let count = Float(max(bins.count, 1))
        // 10·log10(exp(mean ln P) / mean P); `fastLog`, no libm call per bin (only diagnostics and the clap rule,
        // off by default, read it).
        let flatness = 4.3429448 * (logPower / count - fastLog(max(power / count, 1e-30)))
        return FrameSpectrum(
            excess: excessTotal, background: backgroundTotal, centroidHz: weighted / total,
            tonality: min(1, peaks.total / total), highShare: high / total,
            contrastDB: 10 * log10(max(peakPower, 1e-20) / max(flankPower, 1e-20)), peaks: peaks,
            flatnessDB: min(0, flatness))
    }

    /// Mean power of `count` samples of `ring` from `start`.
    static func energy(_ ring: SampleRing, from start: Int64, count: Int) -> Float {
        var sum: Float = 0
        for i in 0..<Int64(count) {
            let y = ring[start + i]
            sum += y * y
        }
        return sum / Float(max(count, 1))
    }
}

/// What one analysis frame says about a candidate.
struct FrameSpectrum {
    var excess: Float
    var background: Float
    var centroidHz: Float
    var tonality: Float
    var highShare: Float
    var contrastDB: Float
    var peaks: TopPeaks
    var flatnessDB: Float
}

/// The four largest values seen, with their bins; fixed size, no allocation.
struct TopPeaks {
    private(set) var values: (Float, Float, Float, Float) = (0, 0, 0, 0)
    /// Number of slots.
    static let capacity = 4
    private var slots: (Int, Int, Int, Int) = (0, 0, 0, 0)

    /// The bin in slot `index` (0 = strongest); 0 when the slot is empty.
    func bin(_ index: Int) -> Int {
        switch index {
        case 0: slots.0
        case 1: slots.1
        case 2: slots.2
        default: slots.3
        }
    }

    /// Energy-weighted share of these peaks that `other` also has within one bin.
    func persistence(in other: TopPeaks) -> Float {
        var kept: Float = 0
        for slot in 0..<Self.capacity where bin(slot) > 0 {
            for otherSlot in 0..<Self.capacity where other.bin(otherSlot) > 0 && abs(other.bin(otherSlot) - bin(slot)) <= 1 {
                kept += value(slot)
                break
            }
        }
        return total > 0 ? kept / total : 0
    }

    /// The value in slot `index`.
    func value(_ index: Int) -> Float {
        switch index {
        case 0: values.0
        case 1: values.1
        case 2: values.2
        default: values.3
        }
    }

    /// Sum of the kept values.
    var total: Float { values.0 + values.1 + values.2 + values.3 }

    mutating func insert(_ value: Float, bin: Int) {
        guard value > values.3 else { return }
        if value > values.0 {
            values = (value, values.0, values.1, values.2)
            slots = (bin, slots.0, slots.1, slots.2)
        } else if value > values.1 {
            values = (values.0, value, values.1, values.2)
            slots = (slots.0, bin, slots.1, slots.2)
        } else if value > values.2 {
            values = (values.0, values.1, value, values.2)
            slots = (slots.0, slots.1, bin, slots.2)
        } else {
            values.3 = value
            slots.3 = bin
        }
    }
}
