/// Hears applause by its rhythm, whatever a clap sounds like.
///
/// A person clapping strikes at a steady 3.5–6 per second; a ball in play never does: a rally's strokes come
/// 0.3–0.9 s apart with a serve's two bounces at 0.1–0.45 s, and a ball bouncing on speeds up (its gaps shrink by
/// 0.70–0.95 each). So four impulsive sounds in a row of one person's train — three gaps in
/// `periodSamples`, each within `tolerance` of the others, not shrinking as a bouncing ball's do — are applause, and
/// for `alivePeriods` of its period after the last of them every sound that only its timbre calls a ball is a clap
/// too: the other people clapping along. Claps of several people interleave, so a train is looked for among the
/// last `capacity` impulsive sounds, not only consecutive ones. A group's claps, 4–13 a second, also start applause by
/// their density alone (`densityCount`, `crowd(endingAt:attackDB:)`). Pure, with frames for time; allocates nothing.
struct ApplauseTrain {
    /// Impulsive sounds remembered (the newest last; `Int64.min` = none).
    static let capacity = 8
    /// Shortest and longest gap (samples) of a clapping train.
    let periodSamples: ClosedRange<Int64>
    /// How far (a share) each gap of the train may lie from the others.
    let tolerance: Double
    /// A train whose every gap is under this share of the one before speeds up as a bouncing ball does: not applause.
    let speedUp: Double
    /// …unless one of its sounds is this much louder (dB; 0 = never) than the one before: a bouncing ball fades, claps
    /// struck 4–6 a second as a hand tires or quickens come as loud as they come.
    let speedUpLouderDB: Float
    /// How long applause lasts after its train's last clap, in that train's periods.
    let alivePeriods: Double
    /// Sounds a train may skip between two of its claps (another person's claps; `capacity` − 4 at most).
    let skips: Int
    /// Impulsive sounds (this one among them; 0 = off, at most `capacity` + 1) that within `densitySamples` make
    /// applause by their density alone: a group claps 4–13 times a second, a ball in play at most ~3 (a dropped ball
    /// more, but its every gap shrinks).
    let densityCount: Int
    /// See `densityCount` (samples).
    let densitySamples: Int64
    /// Gaps among a dense run of sounds that must each grow past the one before (by 1/`speedUp`): a dropped ball's
    /// never do, even with a stray sound between two bounces.
    let densityGrowths: Int
    /// Sounds whose attack lies further than this (dB; 0 = any) from the newest one's are not counted with it: a
    /// crowd's claps sound alike, a serve 40 dB sharper than the applause it follows is no part of it.
    let densityLevelDB: Float
    private var onsets = SIMD8<Int64>(repeating: .min)
    /// Their attacks (dB; −∞ = none).
    private var attacks = SIMD8<Float>(repeating: -.infinity)
    /// Their levels (dB, the loudest onset band's; −∞ = none), for `bouncesOn`.
    private var levels = SIMD8<Float>(repeating: -.infinity)
    private var aliveUntil: Int64 = .min

    init(periodSamples: ClosedRange<Int64>, tolerance: Double, speedUp: Double, alivePeriods: Double, skips: Int,
         densityCount: Int = 0, densitySamples: Int64 = 0, densityGrowths: Int = 2, densityLevelDB: Float = 0,
         speedUpLouderDB: Float = 0) {
        self.densityLevelDB = densityLevelDB
        self.speedUpLouderDB = speedUpLouderDB
        self.densityCount = min(max(densityCount, 0), Self.capacity + 1)
        self.densitySamples = densitySamples
        self.densityGrowths = densityGrowths
        self.periodSamples = periodSamples
        self.tolerance = tolerance
        self.speedUp = speedUp
        self.alivePeriods = alivePeriods
        self.skips = min(max(skips, 0), Self.capacity - 4)
    }

    /// The sharpest attack (dB) among the impulsive sounds remembered (−∞ before any): a sound far sharper than every
    /// clap of the applause around it is something else (a serve struck by the phone while a crowd claps further off).
    var loudestAttackDB: Float { attacks.max() }

    /// Notes an impulsive sound at `frame` (frames never go back) with its attack and level (dB) and returns whether it
    /// is applause: the fourth of a clapping train among the sounds noted before, or within the applause a train
    /// started.
    mutating func note(_ frame: Int64, attackDB: Float = 0, levelDB: Float = 0) -> Bool {
        let applauding = frame <= aliveUntil
        // A sound that goes on speeding up the sounds just before it is a ball bouncing on, whatever train a few of
        // them might also make.
        let bouncing = speedsUp(to: frame, levelDB: levelDB)
        if !bouncing, let period = train(endingAt: frame, levelDB: levelDB) {
            aliveUntil = max(aliveUntil, frame + Int64((Double(period) * alivePeriods).rounded()))
        }
        if !bouncing, let gap = crowd(endingAt: frame, attackDB: attackDB) {
            aliveUntil = max(aliveUntil, frame + Int64((Double(gap) * alivePeriods).rounded()))
        }
        for lane in 0..<(Self.capacity - 1) {
            onsets[lane] = onsets[lane + 1]
            attacks[lane] = attacks[lane + 1]
            levels[lane] = levels[lane + 1]
        }
        onsets[Self.capacity - 1] = frame
        attacks[Self.capacity - 1] = attackDB
        levels[Self.capacity - 1] = levelDB
        return !bouncing && (applauding || frame <= aliveUntil)
    }

    /// Whether the last two gaps of the sounds just before `frame`, and the gap to it, are a ball bouncing on
    /// (`bouncesOn`).
    private func speedsUp(to frame: Int64, levelDB: Float) -> Bool {
        let last = Self.capacity - 1
        guard onsets[last - 2] != .min else { return false }
        return bouncesOn(newest: frame - onsets[last], middle: onsets[last] - onsets[last - 1],
                         oldest: onsets[last - 1] - onsets[last - 2], levels: (levels[last - 1], levels[last], levelDB))
    }

    /// Whether three gaps each shrink under `speedUp` of the one before while the three sounds ending them (oldest
    /// first) fade, none `speedUpLouderDB` louder than the one before (an unmeasured level, −∞, is no evidence either
    /// way): a ball bouncing on, not applause.
    private func bouncesOn(newest: Int64, middle: Int64, oldest: Int64, levels: (Float, Float, Float)) -> Bool {
        guard Double(newest) < speedUp * Double(middle), Double(middle) < speedUp * Double(oldest) else { return false }
        let (first, second, third) = levels
        guard speedUpLouderDB > 0, first.isFinite, second.isFinite, third.isFinite else { return true }
        return second < first + speedUpLouderDB && third < second + speedUpLouderDB
    }

    /// Whether `frame` lies within applause a train started (without noting anything).
    func applauding(at frame: Int64) -> Bool { frame <= aliveUntil }

    /// The last gap of a steady train of four ending at `frame` (its level `levelDB`), if the remembered sounds hold
    /// one that is no ball bouncing on.
    private func train(endingAt frame: Int64, levelDB: Float) -> Int64? {
        let newest = Self.capacity - 1
        for a in stride(from: newest, through: max(2, newest - skips), by: -1) where onsets[a] != .min {
            let first = frame - onsets[a]
            guard first <= periodSamples.upperBound else { break }
            guard first >= periodSamples.lowerBound else { continue }
            for b in stride(from: a - 1, through: max(1, a - 1 - skips), by: -1) where onsets[b] != .min {
                let second = onsets[a] - onsets[b]
                guard second <= periodSamples.upperBound else { break }
                guard steady(first, second) else { continue }
                for c in stride(from: b - 1, through: max(0, b - 1 - skips), by: -1) where onsets[c] != .min {
                    let third = onsets[b] - onsets[c]
                    guard third <= periodSamples.upperBound else { break }
                    guard steady(second, third), steady(first, third) else { continue }
                    if !bouncesOn(newest: first, middle: second, oldest: third, levels: (levels[b], levels[a], levelDB)) {
                        return first
                    }
                }
            }
        }
        return nil
    }

    /// The mean gap of `densityCount` sounds ending at `frame`, within `densitySamples` of it and within
    /// `densityLevelDB` of its attack, when at least `densityGrowths` of their gaps grow past the one before (many
    /// sounds, not a ball bouncing on).
    private func crowd(endingAt frame: Int64, attackDB: Float) -> Int64? {
        guard densityCount >= 3 else { return nil }
        var count = 1, growths = 0
        var last = frame, later: Int64 = 0
        for lane in stride(from: Self.capacity - 1, through: 0, by: -1) {
            let onset = onsets[lane]
            guard onset != .min, frame - onset <= densitySamples else { break }
            let gap = last - onset
            guard densityLevelDB <= 0 || abs(attacks[lane] - attackDB) <= densityLevelDB else { continue }
            if later > 0, Double(later) * speedUp > Double(gap) { growths += 1 }
            count += 1
            later = gap
            last = onset
            if count >= densityCount {
                return growths >= densityGrowths ? (frame - last) / Int64(count - 1) : nil
            }
        }
        return nil
    }

    /// Whether two gaps lie within `tolerance` of each other.
    private func steady(_ a: Int64, _ b: Int64) -> Bool {
        b > 0 && abs(Double(a) / Double(b) - 1) <= tolerance
    }
}
