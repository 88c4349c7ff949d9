import Foundation

/// A ball dropped or rolled on a table bounces ever faster and ever softer: each gap a little shorter than the one
/// before (a bounce keeps ≈ 0.8–0.95 of its speed), down to a few tens of milliseconds. Once two impacts came less
/// than `longestGap` apart, the next one is expected a little sooner again; a candidate in that window continues
/// the run (`CandidateRules.continuesRun`). A rally's shots (0.3–0.9 s apart, serve and return no faster than the
/// last) rarely fall in it, nor do a few stray sounds after one ball. Frames are the stream's own sample counts.
struct BounceRun {
    /// Longest gap between two impacts of a run (0 = runs off).
    let longestGap: Int64
    /// The next gap may be up to this multiple of the last one…
    let slowest: Double
    /// …and no shorter than this multiple of it.
    let fastest: Double
    /// A run may start from one impact: the first gap after it may be up to this long (0 = a run needs two impacts)…
    let firstGap: Int64
    /// …and no shorter than this: a ball dropped or bounced on is airborne a while before its second bounce, while
    /// a racket hit's own rattle or a reflection follows it within a few tens of milliseconds.
    let shortestFirstGap: Int64
    /// The run's clock: a bouncing ball's next gap is the last one × r, its run's own ratio (the last gap over the
    /// one before), and a bounce within this share of the predicted interval is on time (`onTime`); a run that
    /// speeds up and loses one bounce resumes where the bounce after it is due, gap × (r + r²) on (`resumes`).
    /// 0 = no clock.
    let clockTolerance: Double
    /// The clock's ratio is fitted over the run's last this many gaps (2…4; 2 = the last gap over the one before).
    let clockGaps: Int
    /// A run that speeds up and lost one bounce resumes where the bounce after it is due (`resumes`) even past
    /// `longestGap`: a dropped ball's early gaps are 150–250 ms, so the one that spans a lost bounce is up to 450 ms.
    let resumesPastLongestGap: Bool
    /// The last reported impact's onset (`noImpact` before the first).
    private(set) var last = Self.noImpact
    /// An onset so long ago that no gap from it belongs to a run.
    static let noImpact = Int64.min / 2
    /// The last gaps (frames), newest first, `Int64.max` where there was none: `gap` and `previousGap` are the first
    /// two, the clock reads up to `clockGaps` of them, and the first `recentGapCount` are the current run's.
    private var gaps = SIMD4<Int64>(repeating: .max)
    private var recentGapCount = 0
    /// The last gap.
    private var gap: Int64 { gaps[0] }
    /// The gap before `gap`.
    private var previousGap: Int64 { gaps[1] }
    /// The run's ratio r and its next gap (`fittedClock`), refitted at each report: asked every hop in a run.
    private var clock: (ratio: Double, next: Double)?
    /// Impacts in the current run so far (1 = a lone impact).
    private(set) var length = 0
    /// The last reported impact came on the run's clock (`onTime` when it was reported): the run has shown a
    /// bouncing ball's constant ratio at least once.
    private(set) var clockHeld = false
    /// The last reported impact's band levels (`ImpactFeatures.bandLevelsDB`).
    private(set) var lastLevels = SIMD8<Float>(repeating: 0)
    /// The band levels of the report before the last (`lastLevels` until a second report).
    private(set) var previousLevels = SIMD8<Float>(repeating: 0)
    /// The last reported impact's energy over the room in its onset frame (`ImpactFeatures.snrDB`).
    private(set) var lastExcessDB: Float = 0

    /// Every optional behaviour defaults to off (no first-gap start, no clock, no resume past `longestGap`): a unit
    /// test asks for the ones it exercises, and the detector passes all of them from `DetectorParameters`.
    init(longestGap: Int64, slowest: Double, fastest: Double, firstGap: Int64 = 0, shortestFirstGap: Int64 = 0,
         clockTolerance: Double = 0, clockGaps: Int = 4, resumesPastLongestGap: Bool = false) {
        self.clockTolerance = clockTolerance
        self.resumesPastLongestGap = resumesPastLongestGap
        self.clockGaps = min(max(clockGaps, 2), 4)
        self.longestGap = longestGap
        self.slowest = slowest
        self.fastest = fastest
        self.firstGap = firstGap
        self.shortestFirstGap = shortestFirstGap
    }

    /// Whether an onset at `frame` falls where the run's next bounce is due: within `longestGap` of the last impact
    /// and `fastest`…`slowest` times the last gap, or past `longestGap` where the bounce after a lost one is due
    /// (`resumesPastLongestGap`).
    func continues(at frame: Int64) -> Bool {
        guard longestGap > 0 else { return false }
        guard gap <= longestGap else { return starts(at: frame) }
        let next = Double(frame - last)
        return (next <= Double(longestGap) || resumesPastLongestGap && resumes(after: next))
            && next <= slowest * Double(gap) && next >= fastest * Double(gap)
    }

    /// Whether the run is speeding up as a bouncing ball's does: its last gap at most `pace` times the one before,
    /// and an onset at `frame` at most `pace` times the last gap after the last impact. A ball loses speed at every
    /// bounce, so its gaps shrink by a near-constant factor (0.8–0.95); claps, steps or a rally keep their own
    /// rhythm, no shorter gap after gap.
    /// A run that lost one bounce still speeds up where the bounce after it is due (`resumes`).
    func speedsUp(at frame: Int64, pace: Double) -> Bool {
        guard length >= 3, Double(gap) <= pace * Double(previousGap) else { return false }
        let next = Double(frame - last)
        return next <= pace * Double(gap) || resumes(after: next)
    }

    /// Whether an onset at `frame` comes when a bouncing ball's next bounce is due to within `clockTolerance` of the
    /// interval: the run's own ratio r (its last gap over the one before) predicts the next gap, gap × r, or after a
    /// lost bounce gap × (r + r²). A ball keeps a near-constant share of its speed at every bounce, so the bounces
    /// of a run come on time to a millisecond or two; nothing else in a room keeps that clock.
    func onTime(at frame: Int64) -> Bool {
        let tolerance = clockTolerance
        guard tolerance > 0, let (next, afterLost) = dueIntervals else { return false }
        let interval = Double(frame - last)
        return abs(interval - next) <= tolerance * next || abs(interval - afterLost) <= tolerance * afterLost
    }

    /// How far an onset at `frame` lies from the run's clock: the smaller relative deviation from gap × r and from
    /// gap × (r + r²) after the last impact (`onTime` asks at most `clockTolerance`); nil with no clock yet.
    func clockError(at frame: Int64) -> Double? {
        guard let (next, afterLost) = dueIntervals else { return nil }
        let interval = Double(frame - last)
        return min(abs(interval - next) / next, abs(interval - afterLost) / afterLost)
    }

    /// Whether an onset at `frame` comes before the run's clock puts its next bounce; false with no clock yet.
    func isAheadOfClock(_ frame: Int64) -> Bool {
        guard let (next, _) = dueIntervals else { return false }
        return Double(frame - last) < next
    }

    /// When the run's clock puts its next bounce after the last impact, gap × r, and the one after a lost bounce,
    /// gap × (r + r²) (frames); nil before the run has sped up over three impacts.
    private var dueIntervals: (next: Double, afterLost: Double)? {
        guard let (ratio, next) = clock else { return nil }
        return (next, next + next * ratio)
    }

    /// The run's ratio r and its next gap, once it has sped up over three impacts: r is the last gap over the one
    /// before, and the next gap the last × r; over more gaps (`clockGaps`), r and the last gap are the
    /// least-squares line through their logarithms, so a millisecond's error in one onset (5 % of a 20 ms gap's
    /// ratio) no longer moves the whole clock.
    private func fittedClock() -> (ratio: Double, next: Double)? {
        guard length >= 3, gap < previousGap else { return nil }
        let n = min(recentGapCount, clockGaps)
        guard n >= 3 else {
            let ratio = Double(gap) / Double(previousGap)
            return (ratio, Double(gap) * ratio)
        }
        // log g_j = a + b j, j = 0 (the newest) … n − 1; r = e^(−b), the next gap e^a × r.
        var sumJ = 0.0, sumY = 0.0, sumJJ = 0.0, sumJY = 0.0
        for j in 0..<n {
            let y = log(Double(gaps[j])), x = Double(j)
            sumJ += x; sumY += y; sumJJ += x * x; sumJY += x * y
        }
        let count = Double(n)
        let slope = (count * sumJY - sumJ * sumY) / (count * sumJJ - sumJ * sumJ)
        let intercept = (sumY - slope * sumJ) / count
        let ratio = exp(-slope)
        guard ratio < 1 else { return nil }
        return (ratio, exp(intercept) * ratio)
    }

    /// Remembers a gap of the run for the clock (newest first); `restart` when it is the run's first.
    private mutating func noteGap(_ newGap: Int64, restart: Bool) {
        gaps = SIMD4(newGap, gaps[0], gaps[1], gaps[2])
        recentGapCount = restart ? 1 : min(recentGapCount + 1, 4)
    }

    /// Whether an onset `interval` frames after the last reported impact of a run that speeds up is the bounce after
    /// a lost one: a bouncing ball keeps a near-constant share r of its speed at every bounce, so its gaps shrink by
    /// r each time (the run's last gap over the one before), and the bounce after the next is due gap × (r + r²) on.
    func resumes(after interval: Double) -> Bool {
        guard clockTolerance > 0, let (_, afterLost) = dueIntervals else { return false }
        return abs(interval - afterLost) <= clockTolerance * afterLost
    }

    /// Whether an onset at `frame` keeps a bouncing ball's pace: in a run of two, `ratios` of its one gap after the
    /// last impact; in a longer run, within `clockTolerance` of its clock (`clockError`).
    func keepsPace(at frame: Int64, ratios: ClosedRange<Double>, clockTolerance: Double) -> Bool {
        if let ratio = runOfTwoRatio(at: frame) { return ratios.contains(ratio) }
        guard length >= 3, let error = clockError(at: frame) else { return false }
        return error <= clockTolerance
    }

    /// Whether an onset at `frame` would be the third bounce of a run of two: at least `fastest` and at most `pace`
    /// times the run's one gap after its second impact (a dropped ball's third bounce comes sooner than its second).
    func third(at frame: Int64, pace: Double) -> Bool {
        guard let ratio = runOfTwoRatio(at: frame) else { return false }
        return ratio <= pace && ratio >= fastest
    }

    /// In a run of two, an onset at `frame`'s interval after the second impact over the run's one gap; nil otherwise.
    private func runOfTwoRatio(at frame: Int64) -> Double? {
        guard length == 2, gap <= longestGap else { return nil }
        return Double(frame - last) / Double(gap)
    }

    /// Starts a run at a bounce reported at `frame` that ends a bouncing ball's rejected run (`RejectedRun`): its
    /// last gaps were `gap` and, before it, `previousGap`, on the clock (`clockHeld`), `length` impacts long.
    mutating func seed(_ frame: Int64, gap: Int64, previousGap: Int64, length: Int, levels: SIMD8<Float>,
                       excessDB: Float = 0) {
        lastExcessDB = excessDB
        last = frame
        previousLevels = levels
        gaps = SIMD4(gap, previousGap, .max, .max)
        recentGapCount = 2
        self.length = length
        clock = fittedClock()
        clockHeld = true
        lastLevels = levels
    }

    /// Whether an onset at `frame` would be a run's second bounce (`firstGap`, or `within`, after a lone impact, and
    /// no sooner than `shortestFirstGap`, or `after` when that is longer).
    func starts(at frame: Int64, within: Int64? = nil, after: Int64 = 0) -> Bool {
        longestGap > 0 && gap > longestGap && frame - last <= (within ?? firstGap)
            && frame - last >= max(shortestFirstGap, after)
    }

    /// Whether an onset with these band levels (`ImpactFeatures.bandLevelsDB`, the first `bands` lanes) sounds like
    /// the last reported impact struck again: over the bands, its level differences from it spread by at most
    /// `shapeDB` (RMS about their mean: the same object rings in the same bands) and average at most `louderDB`
    /// (a bounce keeps only part of its speed: the next is no louder) and at least `-quieterDB`. `shapeDB` 0 = any
    /// sound.
    func resembles(_ levels: SIMD8<Float>, bands: Int, shapeDB: Float, louderDB: Float,
                   quieterDB: Float = .infinity) -> Bool {
        guard shapeDB > 0, bands > 0 else { return true }
        let (mean, spread) = Self.difference(levels, from: lastLevels, bands: bands)
        return spread <= shapeDB && mean <= louderDB && mean >= -quieterDB
    }

    /// How band levels differ from a reference over the first `bands` (> 0): the mean difference (dB) and the RMS
    /// spread of the differences about it (the shape's distance, whatever the level).
    static func difference(_ levels: SIMD8<Float>, from reference: SIMD8<Float>, bands: Int)
        -> (mean: Float, spread: Float) {
        var mean: Float = 0
        for b in 0..<bands { mean += levels[b] - reference[b] }
        mean /= Float(bands)
        var spread: Float = 0
        for b in 0..<bands {
            let d = levels[b] - reference[b] - mean
            spread += d * d
        }
        return (mean, (spread / Float(bands)).squareRoot())
    }

    /// Records a reported impact at `frame`. A gap in a run at least `missedBounce` times the last one spanned a
    /// bounce that was not reported: the run's pace is half of it (else the bounce after it, due in about half that
    /// gap, would fall under `fastest` and end the run).
    mutating func report(_ frame: Int64, levels: SIMD8<Float> = SIMD8(repeating: 0), excessDB: Float = 0) {
        previousLevels = length == 0 ? levels : lastLevels
        lastLevels = levels
        lastExcessDB = excessDB
        clockHeld = onTime(at: frame)
        let newGap = frame - last
        let inRun = gap <= longestGap && Double(newGap) <= slowest * Double(gap)
        if inRun, newGap > gap, resumes(after: Double(newGap)), let (ratio, next) = clock {
            // The run resumes after a lost bounce: the gaps it spanned were the clock's next gap and it × r.
            noteGap(Int64(next.rounded()), restart: false)
            noteGap(Int64((next * ratio).rounded()), restart: false)
            length += 2
            last = frame
            clock = fittedClock()
            return
        }
        length = inRun && newGap <= longestGap ? length + 1 : newGap <= longestGap ? 2 : 1
        noteGap(inRun && Double(newGap) >= Self.missedBounce * Double(gap) ? newGap / 2 : newGap, restart: length <= 2)
        last = frame
        clock = fittedClock()
    }

    /// Forgets the lone impact before the next report, which starts a run of its own (`RunEvidence.report`).
    mutating func forgetLast() {
        last = Self.noImpact
    }

    /// See `report`: a bounce keeps 0.8–0.95 of its pace, so two gaps span 1.6–1.9 of the last one.
    static let missedBounce = 1.5
}
