/// What the stream's run of bounces says about a candidate: the run of reported impacts (`BounceRun`), the rejected
/// candidates that rang like a ball (`RejectedRun`), and the predictor that hears a bounce rise out of the last
/// one's ring (`RingPredictor`, RunEvidence+Ring.swift). The detector asks it where a bounce is due and how a
/// candidate fits the run, and tells it every impact it reports. Allocates only in `init`. A class: the detector
/// asks it every hop, and a struct this size (it keeps the parameters) was copied for every question.
final class RunEvidence {
    /// The stream's last impacts: a ball bouncing ever faster continues its run.
    private(set) var bounces: BounceRun
    /// The stream's last rejected candidates that rang like a ball.
    private var rejected: RejectedRun
    /// The run as it stood before its last report, while that report, taken by a run rule as a later bounce more
    /// than `DetectorParameters.runReplaceClock` off the clock, may yet prove the ring's stirring (`replaces`).
    private var beforeLastReport: BounceRun?
    /// The last report was the learned recovery's (`CandidateRule.model`): weak evidence to start a run on.
    private var lastRecovered = false
    /// Times a run's bounce that rises out of the last one's ring.
    let ringPredictor: RingPredictor
    let parameters: DetectorParameters
    /// Onset bands measured at this rate (`CandidateRules.bands`).
    let bands: Int

    /// What the run says of one candidate (`assess`).
    struct Assessment {
        /// It falls where the run's next bounce is due (after a lone impact, sounding like it; never off the clock
        /// of a run that keeps one, nor far louder than its last bounce): `CandidateRules`' `followsImpact`.
        var followsImpact: Bool
        /// How it sounds against the last impact, where a ball bouncing on would strike next.
        var likeness: RunLikeness
        /// How far the ring before an on-time candidate fails to predict it, for the unpredicted-bounce rule
        /// (`DetectorParameters.runInnovationDB`), before a run's second or third bounce, for the unpredicted
        /// start (`runStartInnovationDB`), or before a loosely shaped bounce or one of a run under way, for the
        /// loose rule (`runLooseInnovationDB`); −∞ where those rules cannot take it.
        var unpredictedDB: Float
        /// The ring before an on-time candidate predicted it (`DetectorParameters.runOnTimePredictedDB`).
        var predicted: Bool
        /// An on-time or loosely shaped later candidate's distance from the run's clock (`BounceRun.clockError`); NaN
        /// for any other.
        var clockError: Double
        /// The last impact's excess over the room while the run has one or two impacts, no bouncing ball yet
        /// (`DetectorParameters.runEarlyExcessDB`); nil in a run of three or more.
        var earlyRunExcessDB: Float?
        /// Impacts in the run before it.
        var runLength: Int
        /// It follows the impact at a bouncing ball's pace (`BounceRun.keepsPace`, for
        /// `DetectorParameters.runClippedPaceShare`).
        var keepsPace = false
        /// It was judged against the run before its last report, which it replaces if reported (`replaces`).
        var replacesLast = false
    }

    /// The run's evidence with `parameters`' run settings, over `bands` onset bands.
    init(parameters: DetectorParameters, bands: Int) {
        self.parameters = parameters
        self.bands = bands
        ringPredictor = RingPredictor(order: 16, fitLength: parameters.samples(parameters.runOnsetFitSeconds))
        let longestGap = Int64(parameters.samples(parameters.runSeconds))
        bounces = BounceRun(longestGap: longestGap, slowest: parameters.runSlowest, fastest: parameters.runFastest,
                            firstGap: Int64(parameters.samples(parameters.runFirstSeconds)),
                            shortestFirstGap: Int64(parameters.samples(parameters.runFirstShortestSeconds)),
                            clockTolerance: parameters.runClockTolerance, clockGaps: parameters.runClockGaps,
                            resumesPastLongestGap: parameters.runResumesPastRunSeconds)
        rejected = RejectedRun(length: parameters.rejectedRunLength, longestGap: longestGap,
                               tolerance: parameters.runClockTolerance)
    }

    deinit { ringPredictor.deallocate() }

    /// The band rise's trigger (dB) for an onset near `frame`: where a run's next bounce is due it may trigger on
    /// less (`DetectorParameters.runTriggerDB`).
    @inline(__always)
    func bandRiseTriggerDB(at frame: Int64) -> Float {
        parameters.runTriggerDB > 0 && bounces.continues(at: frame) ? parameters.runTriggerDB : parameters.bandRiseTriggerDB
    }

    /// How a candidate at `onset` with `features` fits the run; the ring's innovation (`ring`, the detector's
    /// high-passed samples) is measured only where a rule may ask it: an on-time candidate that `rules`' on-time rule
    /// does not take, a second or third bounce short of its attack (`startInnovation`), a loosely shaped bounce
    /// (`looseInnovation`).
    func assess(_ onset: Int64, _ features: ImpactFeatures, rules: CandidateRules, ring: SampleRing) -> Assessment {
        if let before = beforeLastReport, replaces(onset, before: before) {
            let current = bounces
            bounces = before
            defer { bounces = current }
            var fit = assessAgainstRun(onset, features, rules: rules, ring: ring)
            fit.replacesLast = fit.followsImpact
            if fit.followsImpact { return fit }
        }
        return assessAgainstRun(onset, features, rules: rules, ring: ring)
    }

    /// Whether a trigger at `frame` may start a candidate inside the last report's refractory: that report may yet
    /// prove a stirring (`beforeLastReport`), up to `DetectorParameters.runReplaceSeconds` after it
    /// (`runReplaceTriggers`).
    func mayReplaceLast(at frame: Int64) -> Bool {
        parameters.runReplaceTriggers && beforeLastReport != nil && followsLastReportClosely(frame)
    }

    /// Whether `frame` comes after the last report, by at most `DetectorParameters.runReplaceSeconds`.
    private func followsLastReportClosely(_ frame: Int64) -> Bool {
        frame > bounces.last && frame - bounces.last <= Int64(parameters.samples(parameters.runReplaceSeconds))
    }

    /// Whether a candidate at `onset` is judged against the run `before` the last report (`beforeLastReport`): it
    /// comes within `DetectorParameters.runReplaceSeconds` after that report and within `runReplaceClock` of the
    /// clock the run had before it, or nearer that clock than the report was (`runReplaceCloser`, `runReplaceClockMost`).
    private func replaces(_ onset: Int64, before: BounceRun) -> Bool {
        guard followsLastReportClosely(onset), let error = before.clockError(at: onset) else { return false }
        if error <= parameters.runReplaceClock { return true }
        // How far the last report itself lay off that clock.
        guard error <= parameters.runReplaceClockMost, let reported = before.clockError(at: bounces.last) else { return false }
        return error <= parameters.runReplaceCloser * reported
    }

    /// `assess` against the run as `bounces` holds it.
    private func assessAgainstRun(_ onset: Int64, _ features: ImpactFeatures, rules: CandidateRules,
                                  ring: SampleRing) -> Assessment {
        let followsImpact = follows(onset, features.bandLevelsDB)
        let likeness = likeness(onset, features, followsImpact)
        let innovation = switch likeness {
        case .onTime: ringInnovation(at: onset, features, rules: rules, ring: ring)
        case .second, .third:
            (unpredicted: startInnovation(at: onset, features, likeness, rules: rules, ring: ring), predicted: false)
        case .looseSecond, .looseThird, .looseLater, .underWay:
            (unpredicted: looseInnovation(at: onset, features, likeness, ring: ring), predicted: false)
        case .onClockUnlike: (unpredicted: innovationDB(at: onset, ring: ring) ?? -.infinity, predicted: false)
        default: (unpredicted: -Float.infinity, predicted: false)
        }
        return Assessment(followsImpact: followsImpact, likeness: likeness, unpredictedDB: innovation.unpredicted,
                          predicted: innovation.predicted,
                          clockError: likeness == .onTime || likeness == .looseLater || likeness == .onClockUnlike
                              ? bounces.clockError(at: onset) ?? .nan : .nan,
                          earlyRunExcessDB: bounces.length < 3 ? bounces.lastExcessDB : nil, runLength: bounces.length,
                          keepsPace: followsImpact && parameters.runClippedPaceShare > 0
                              && bounces.keepsPace(at: onset, ratios: parameters.runPaceFastest...parameters.runPaceSlowest,
                                                   clockTolerance: parameters.runClippedPaceClock))
    }

    /// Whether an accepted candidate at `onset` that `followsImpact` is a bounce of a run speeding up as a bouncing
    /// ball's does (`BounceRun.speedsUp`; not a lone impact's second): `StreamKinds` names its kind by the run.
    func isSpeedingBounce(_ onset: Int64, followsImpact: Bool) -> Bool {
        followsImpact && !bounces.starts(at: onset) && bounces.speedsUp(at: onset, pace: parameters.runLikePace)
    }

    /// Whether a rejected candidate ends a bouncing ball's rejected run (`RejectedRun`): only one that rises
    /// abruptly (`DetectorParameters.rejectedRunBands`) and does not grow is noted.
    func endsRejectedRun(_ onset: Int64, _ features: ImpactFeatures) -> Bool {
        guard parameters.rejectedRunShapeDB > 0, features.attackDB >= parameters.rejectedRunAttackDB,
              features.risingBands >= parameters.rejectedRunBands, features.decayDB <= 0 else { return false }
        return rejected.note(onset, levels: features.bandLevelsDB, bands: bands,
                             shapeDB: parameters.rejectedRunShapeDB, louderDB: parameters.runLouderDB)
    }

    /// Records an impact reported at `onset` with these band levels and excess over the room (`ImpactFeatures.snrDB`);
    /// `endsRejectedRun` when the rejected run it ends (`CandidateRule.rejectedRun`) starts the run on that run's
    /// clock; `laterBounce` when a run rule took it as a later bounce (`CandidateRule.continuesLaterBounce`), which a
    /// bounce on the clock may replace (`Assessment.replacesLast`, `replacing`); `recovered` when the learned recovery
    /// gave it back (`DetectorParameters.runLouderRestartsDB`). Forgets the rejected candidates.
    func report(_ onset: Int64, levels: SIMD8<Float>, excessDB: Float, endsRejectedRun: Bool,
                laterBounce: Bool = false, replacing: Bool = false, recovered: Bool = false) {
        if replacing, let before = beforeLastReport { bounces = before }
        beforeLastReport = nil
        if laterBounce, !replacing, parameters.runReplaceSeconds > 0,
           let error = bounces.clockError(at: onset), error > parameters.runReplaceClock {
            beforeLastReport = bounces
        }
        // A lone impact the learned recovery gave back, followed by one far louder: the louder is no bounce of it (a
        // ball keeps only part of its speed) but a new ball's first, whose run must not take the gap from a faint
        // sound before it as its first (`DetectorParameters.runLouderRestartsDB`).
        if parameters.runLouderRestartsDB > 0, lastRecovered, !endsRejectedRun, !replacing, bounces.length == 1,
           BounceRun.difference(levels, from: bounces.lastLevels, bands: bands).mean > parameters.runLouderRestartsDB {
            bounces.forgetLast()
        }
        lastRecovered = recovered
        if endsRejectedRun {
            let gaps = rejected.gaps
            bounces.seed(onset, gap: gaps.last, previousGap: gaps.before, length: rejected.length, levels: levels,
                         excessDB: excessDB)
        } else {
            bounces.report(onset, levels: levels, excessDB: excessDB)
        }
        rejected.clear()
    }

    /// What the run knew of a candidate at `onset` that `rule` decided (diagnostics, `CandidateDecision`): in a run
    /// of three or more, the ring's innovation (`ring`) is measured for it.
    func decision(_ onset: Int64, levels: SIMD8<Float>, rule: CandidateRule, followsImpact: Bool,
                  ring: SampleRing) -> CandidateDecision {
        let last = BounceRun.difference(levels, from: bounces.lastLevels, bands: bands)
        return CandidateDecision(rule: rule, runLength: bounces.length, due: followsImpact,
                                 speedingUp: bounces.speedsUp(at: onset, pace: parameters.runLikePace),
                                 lastMeanDB: last.mean, lastSpreadDB: last.spread,
                                 clockError: bounces.clockError(at: onset) ?? .nan,
                                 innovationDB: bounces.length >= 3 ? innovationDB(at: onset, ring: ring) ?? .nan : .nan)
    }

    /// A run's second bounce, after a lone impact, must sound like that impact struck again; no bounce falls off
    /// the clock of a run that keeps one (`offClock`) or is far louder than its last one (`breaksRun`).
    private func follows(_ onset: Int64, _ levels: SIMD8<Float>) -> Bool {
        bounces.continues(at: onset)
            && (!bounces.starts(at: onset) || bounces.resembles(levels, bands: bands, shapeDB: parameters.runShapeDB,
                                                                louderDB: parameters.runLouderDB))
            && !offClock(onset)
            && !breaksRun(levels)
    }

    /// Whether a candidate is so much louder than the run's last impact (`DetectorParameters.runLouderBreaksDB`) that it
    /// is none of its bounces: a ball bouncing on keeps only part of its speed each time. In a run that keeps its
    /// clock (`BounceRun.clockHeld`), louder than the report before the last too (`runLouderBreaksOverTwo`).
    private func breaksRun(_ levels: SIMD8<Float>) -> Bool {
        guard parameters.runLouderBreaksDB > 0, bounces.length >= 2,
              BounceRun.difference(levels, from: bounces.lastLevels, bands: bands).mean > parameters.runLouderBreaksDB
        else { return false }
        return !parameters.runLouderBreaksOverTwo || !bounces.clockHeld
            || BounceRun.difference(levels, from: bounces.previousLevels, bands: bands).mean > parameters.runLouderBreaksDB
    }

    /// Whether a candidate sounds like the last impact struck again, where a ball bouncing on would strike next:
    /// the last impact is the template of the next bounce.
    private func likeness(_ onset: Int64, _ features: ImpactFeatures, _ followsImpact: Bool) -> RunLikeness {
        let levels = features.bandLevelsDB
        if parameters.runOnTime, followsImpact, !bounces.starts(at: onset), bounces.clockHeld,
           bounces.speedsUp(at: onset, pace: parameters.runLikePace), bounces.onTime(at: onset),
           bounces.resembles(levels, bands: bands, shapeDB: parameters.runOnTimeShapeDB,
                             louderDB: parameters.runLouderDB), !stirsEarly(onset, levels) {
            return .onTime
        }
        if parameters.runLikeShapeDB > 0, followsImpact, !bounces.starts(at: onset),
           parameters.runLikePace <= 0 || bounces.speedsUp(at: onset, pace: parameters.runLikePace),
           bounces.resembles(levels, bands: bands, shapeDB: parameters.runLikeShapeDB, louderDB: parameters.runLouderDB) {
            return .underWay
        }
        if parameters.runLikeFirstSeconds > 0,
           bounces.starts(at: onset, within: Int64(parameters.samples(parameters.runLikeFirstSeconds))),
           bounces.resembles(levels, bands: bands, shapeDB: parameters.runLikeFirstShapeDB,
                             louderDB: parameters.runLouderDB, quieterDB: parameters.runLikeFirstQuieterDB) {
            return .second
        }
        if parameters.runLikeFirstLooseShapeDB > 0,
           bounces.starts(at: onset, within: Int64(parameters.samples(parameters.runLikeFirstSeconds))),
           bounces.resembles(levels, bands: bands, shapeDB: parameters.runLikeFirstLooseShapeDB,
                             louderDB: parameters.runLouderDB, quieterDB: parameters.runLikeFirstQuieterDB) {
            return .looseSecond
        }
        if parameters.runLikeThirdShapeDB > 0, followsImpact, bounces.third(at: onset, pace: parameters.runLikePace),
           bounces.resembles(levels, bands: bands, shapeDB: parameters.runLikeThirdShapeDB,
                             louderDB: parameters.runLouderDB, quieterDB: parameters.runLikeFirstQuieterDB) {
            return .third
        }
        if parameters.runLikeThirdLooseShapeDB > 0, followsImpact, bounces.third(at: onset, pace: parameters.runLikePace),
           bounces.resembles(levels, bands: bands, shapeDB: parameters.runLikeThirdLooseShapeDB,
                             louderDB: parameters.runLouderDB, quieterDB: parameters.runLikeFirstQuieterDB) {
            return .looseThird
        }
        if parameters.runLooseLaterShapeDB > 0, followsImpact, !bounces.starts(at: onset), bounces.length >= 3,
           bounces.speedsUp(at: onset, pace: parameters.runLikePace),
           bounces.resembles(levels, bands: bands, shapeDB: parameters.runLooseLaterShapeDB,
                             louderDB: parameters.runLouderDB) {
            return .looseLater
        }
        if parameters.runOnClockUnlikeError > 0, followsImpact, !bounces.starts(at: onset),
           bounces.length >= parameters.runOnClockUnlikeRun, bounces.clockHeld,
           bounces.speedsUp(at: onset, pace: parameters.runLikePace),
           let error = bounces.clockError(at: onset), error <= parameters.runOnClockUnlikeError,
           bounces.resembles(levels, bands: bands, shapeDB: .infinity, louderDB: parameters.runLouderDB) {
            return .onClockUnlike
        }
        return .none
    }

    /// Whether a due candidate is the last bounce's ring stirring rather than the next bounce
    /// (`DetectorParameters.runStirQuieterDB`): `runStirQuieterDB` quieter than the last bounce over its bands and
    /// `runStirClockError` or more off the clock. A ball keeps most of its energy from one bounce to the next.
    func stirsEarly(_ onset: Int64, _ levels: SIMD8<Float>) -> Bool {
        guard parameters.runStirQuieterDB > 0, let error = bounces.clockError(at: onset),
              error >= parameters.runStirClockError else { return false }
        return BounceRun.difference(levels, from: bounces.lastLevels, bands: bands).mean < -parameters.runStirQuieterDB
    }

    /// Whether an onset falls off the clock of a run that has shown one and speeds up
    /// (`DetectorParameters.runOffClock`): a bouncing ball keeps its clock, so it is no bounce of that run.
    private func offClock(_ onset: Int64) -> Bool {
        guard parameters.runOffClock > 0, bounces.clockHeld, bounces.speedsUp(at: onset, pace: parameters.runLikePace),
              let error = bounces.clockError(at: onset) else { return false }
        return error > parameters.runOffClock
    }
}
