/// The stream's last rejected candidates that rang like a ball: a ball whose first bounces the rules rejected
/// (a room's noise under their lines, an odd ball) never starts a run, yet its bounces keep a bouncing ball's clock
/// (each gap a near-constant share of the one before) and sound alike, each no louder than the last. A few such
/// rejected candidates in a row are that ball, whatever its timbre (`DetectorParameters.rejectedRunShapeDB`).
/// Fixed storage: nothing is allocated per candidate. Frames are the stream's own sample counts.
struct RejectedRun {
    /// Candidates in the pattern (3 or 4).
    let length: Int
    /// Longest gap between two of them.
    let longestGap: Int64
    /// How far a ratio may stray from the one before (share of it).
    let tolerance: Double
    /// The shrinking ratio a bouncing ball's gaps keep.
    static let ratios = 0.70...0.95
    /// The last four onsets, newest last (`count` of them valid).
    private var onsets = SIMD4<Int64>(repeating: 0)
    private(set) var count = 0
    private var lastLevels = SIMD8<Float>(repeating: 0)

    init(length: Int, longestGap: Int64, tolerance: Double) {
        self.length = min(max(length, 3), 4)
        self.longestGap = longestGap
        self.tolerance = tolerance
    }

    /// The last two gaps of the pattern, once `note` found it.
    var gaps: (last: Int64, before: Int64) { (onsets[3] - onsets[2], onsets[2] - onsets[1]) }

    /// Notes a rejected candidate at `frame` with these band levels (`ImpactFeatures.bandLevelsDB`, the first `bands`
    /// lanes) and returns whether it ends a bouncing ball's pattern: `length` in a row, each up to `longestGap`
    /// after the one before, shaped like it within `shapeDB`, no louder than it by more than `louderDB`, their gaps
    /// shrinking by a ratio in `ratios` that holds to `tolerance`.
    mutating func note(_ frame: Int64, levels: SIMD8<Float>, bands: Int, shapeDB: Float, louderDB: Float) -> Bool {
        if count > 0 {
            let (mean, spread) = BounceRun.difference(levels, from: lastLevels, bands: bands)
            if frame - onsets[3] > longestGap || spread > shapeDB || mean > louderDB { count = 0 }
        }
        onsets = SIMD4(onsets[1], onsets[2], onsets[3], frame)
        lastLevels = levels
        count = min(count + 1, 4)
        guard count >= length else { return false }
        let last = Double(onsets[3] - onsets[2]), middle = Double(onsets[2] - onsets[1])
        let ratio = last / middle
        guard Self.ratios.contains(ratio) else { return false }
        guard length == 4 else { return true }
        let earlier = middle / Double(onsets[1] - onsets[0])
        return Self.ratios.contains(earlier) && abs(ratio - earlier) <= tolerance * earlier
    }

    /// Forgets the candidates (a reported impact: the run, if any, is the reported one's).
    mutating func clear() { count = 0 }
}
