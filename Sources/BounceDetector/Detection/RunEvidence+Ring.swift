/// The run's ring (`RingPredictor`): where a run's next bounce is due, the last bounce still rings, and what its
/// resonances cannot predict times, triggers or unmasks the next one. `ring` is always the detector's high-passed
/// samples; nothing here allocates.
extension RunEvidence {
    /// The onset of a triggered `edge` (found in `searchStart..<searchEnd`): a bounce where the run's next is due,
    /// heard against the last one's ring, is timed by what the ring's own resonances cannot predict
    /// (`RingPredictor`): the first window whose error clears a multiple of the fit's, else, in a bouncing ball's
    /// run, where the error's excess began (a fainter strike). Otherwise the edge's own onset.
    func onset(of edge: OnsetRefiner.Edge, ring: SampleRing, searchStart: Int64, searchEnd: Int64) -> Int64 {
        guard parameters.runOnsetFactor > 0, bounces.continues(at: edge.onset),
              parameters.onsetNoiseFactor * edge.noiseRMS >= parameters.onsetPeakShare * edge.peak
        else { return edge.onset }
        let from = searchStart - Int64(parameters.samples(parameters.runOnsetReachSeconds))
        var predicted = ringPredictor.onset(in: ring, from: from, end: searchEnd,
                                            window: max(1, parameters.samples(parameters.runOnsetSeconds)),
                                            factor: parameters.runOnsetFactor)
        if predicted == nil, parameters.runOnsetAlarm > 0, ringErrorAsked(at: edge.onset) {
            predicted = ringPredictor.changePoint(in: ring, from: from, end: searchEnd,
                                                  drift: parameters.runOnsetDrift, alarm: parameters.runOnsetAlarm,
                                                  cap: parameters.runOnsetCap)
        }
        guard let predicted else { return edge.onset }
        // Never so far back that the report (at once, this hop) would come 10 ms or more after it.
        return min(edge.onset, max(predicted, searchEnd - Int64(parameters.samples(0.0099))))
    }

    /// Where a run's next bounce is due in the hop ending at `end` and no spectral trigger fired: a bounce whose
    /// energy hides under the last one's ring shows as prediction error the ring's resonances cannot explain
    /// (`RingPredictor.changePoint`) before its bands rise. Its onset, if the error shows one.
    @inline(__always)
    func hiddenBounceOnset(ring: SampleRing, end: Int64) -> Int64? {
        let hop = Int64(parameters.hop)
        guard parameters.runErrorAlarm > 0, bounces.continues(at: end - hop), ringErrorAsked(at: end - hop),
              nearClock(end - hop)
        else { return nil }
        return ringPredictor.changePoint(in: ring, from: end - hop - Int64(parameters.samples(parameters.runErrorReachSeconds)),
                                         end: end, drift: parameters.runOnsetDrift, alarm: parameters.runErrorAlarm,
                                         cap: parameters.runOnsetCap)
    }

    /// A weak candidate where a run's next bounce is due, which the ring before it predicted
    /// (`DetectorParameters.runRetimeDB`): the same candidate moved to where the prediction error began to rise
    /// after it, up to `end`, if it did (once; decided `decisionDelay` after its new onset, so within 10 ms of it).
    /// `rejected`: a weak one the rules rejected (`DetectorParameters.runRetimeRejected`; nil while that is off),
    /// whatever the ring predicted of it, moved only onto the run's clock where it has one (`runRetimeRejectedClock`);
    /// a whole-band one too with `runRetimeScope` bit 4, only in a run that has held its clock.
    func retimed(_ candidate: ImpactCandidate, ring: SampleRing, end: Int64,
                 rejected: Bool = false) -> ImpactCandidate? {
        guard parameters.runRetimeDB > 0, !candidate.retimed,
              !rejected || parameters.runRetimeRejected && (candidate.isWeak || parameters.runRetimeScope & 4 != 0),
              candidate.isWeak || parameters.runRetimeScope & 1 != 0, bounces.continues(at: candidate.onset),
              parameters.runRetimeScope & 2 != 0 || ringErrorAsked(at: candidate.onset),
              rejected || (innovationDB(at: candidate.onset, ring: ring).map { $0 < parameters.runRetimeDB } ?? false),
              let onset = changePoint(after: candidate.onset, ring: ring, end: end)
        else { return nil }
        if rejected {
            let error = bounces.clockError(at: onset)
            if let error, error > parameters.runRetimeRejectedClock { return nil }
            // A whole-band one only in a run that has shown a bouncing ball's clock: a quiet room's claps keep none.
            if !candidate.isWeak, error == nil || !bounces.clockHeld { return nil }
        }
        return candidate.moved(to: onset, by: .retimed)
    }

    /// A candidate where a run that has held its clock has its next bounce due, ahead of that clock by more than
    /// `DetectorParameters.runEarlyRetimeClock`: the same candidate moved, once, to where the ring's prediction error
    /// rises after it (`retimed`'s search, up to `end`), if that lies nearer the clock and within
    /// `runEarlyRetimeOnClock` of it (decided `decisionDelay` after its new onset). A drop's last bounces, at the
    /// floor, are heard first as the ring's stirring 2–4 ms ahead, which the ring did not predict either.
    func earlyRetimed(_ candidate: ImpactCandidate, ring: SampleRing, end: Int64) -> ImpactCandidate? {
        guard parameters.runEarlyRetimeClock > 0, !candidate.retimed, bounces.clockHeld,
              bounces.continues(at: candidate.onset), bounces.isAheadOfClock(candidate.onset),
              let before = bounces.clockError(at: candidate.onset), before > parameters.runEarlyRetimeClock,
              let onset = changePoint(after: candidate.onset, ring: ring, end: end),
              let after = bounces.clockError(at: onset), after < before,
              after <= parameters.runEarlyRetimeOnClock
        else { return nil }
        return candidate.moved(to: onset, by: .retimed)
    }

    /// The retimes' one search: where the ring's prediction error rises (`RingPredictor.changePoint`, the ring-error
    /// trigger's alarm) from `DetectorParameters.runRetimeSkipSeconds` after a candidate's `onset` up to `end`.
    private func changePoint(after onset: Int64, ring: SampleRing, end: Int64) -> Int64? {
        ringPredictor.changePoint(in: ring, from: onset + Int64(parameters.samples(parameters.runRetimeSkipSeconds)),
                                  end: end, drift: parameters.runOnsetDrift, alarm: parameters.runErrorAlarm,
                                  cap: parameters.runOnsetCap)
    }

    /// An accepted candidate with `attackDB`, which the ring before it predicted to within `innovationDB`
    /// (`Assessment.unpredictedDB`), where a run's next bounce is due, in a ring pinned to the phone's rail (`raw`):
    /// the same candidate moved, once, to where the rail holds the signal far more often than at its onset, up to
    /// `end` (`DetectorParameters.runClipRetimeRise`, `FeatureExtractor.denserClipping`). It was the ring's stirring at
    /// a peak; the bounce came a few ms later (decided `decisionDelay` after its new onset). A `rejected` one moves
    /// only with `DetectorParameters.runClipRetimeRejectedShare` on, to a stretch at the rail that share of the time,
    /// in a run of at most `runClipRetimeRejectedRun` impacts: a loud drop's second or third bounce, not a clap train.
    /// Where the run has a clock, never further off it (`DetectorParameters.runClipRetimeKeepsClock`).
    func clipRetimed(_ candidate: ImpactCandidate, raw: SampleRing, end: Int64, attackDB: Float,
                     innovationDB: Float, rejected: Bool = false) -> ImpactCandidate? {
        let least = rejected ? parameters.runClipRetimeRejectedShare : parameters.runClipRetimeShare
        guard parameters.runClipRetimeRise > 0, !candidate.retimed, attackDB < parameters.runClipRetimeAttackDB,
              innovationDB < parameters.runClipRetimeInnovationDB, bounces.continues(at: candidate.onset),
              !rejected || least > 0 && bounces.length <= parameters.runClipRetimeRejectedRun,
              let onset = FeatureExtractor.denserClipping(
                  raw, onset: candidate.onset, end: end, span: parameters.samples(0.003),
                  rise: parameters.runClipRetimeRise, least: least)
        else { return nil }
        if parameters.runClipRetimeKeepsClock, let before = bounces.clockError(at: candidate.onset),
           let after = bounces.clockError(at: onset), after > before { return nil }
        return candidate.moved(to: onset, by: .clipRetimed)
    }

    /// How far (dB) the ring before `onset` fails to predict its first `runInnovationSeconds`
    /// (`RingPredictor.innovationDB`, fitted `runInnovationLeadSeconds` before it); nil where the fit is degenerate.
    func innovationDB(at onset: Int64, ring: SampleRing) -> Float? {
        ringPredictor.innovationDB(in: ring, onset: onset,
                                   lead: parameters.samples(parameters.runInnovationLeadSeconds),
                                   length: max(1, parameters.samples(parameters.runInnovationSeconds)))
    }

    /// How far the ring before a run's second or third bounce fails to predict it, measured only where those rules'
    /// own attack is short (`rules.startsOnAttack`) and the unpredicted one's could take it
    /// (`DetectorParameters.runStartInnovationDB`; a second bounce `runStartInnovationShortestSeconds` or more after
    /// the first); −∞ otherwise.
    func startInnovation(at onset: Int64, _ features: ImpactFeatures, _ likeness: RunLikeness, rules: CandidateRules,
                         ring: SampleRing) -> Float {
        guard parameters.runStartInnovationDB > 0, !rules.startsOnAttack(features) else { return -.infinity }
        return earlyInnovation(at: onset, features, second: likeness == .second, ring: ring)
    }

    /// How far the ring before a run's loosely shaped bounce (`RunLikeness.looseSecond`, `.looseThird`,
    /// `.looseLater`) fails to predict it: measured on the attack the unpredicted start asks (a second bounce
    /// `runStartInnovationShortestSeconds` or more after the first); −∞ otherwise.
    func looseInnovation(at onset: Int64, _ features: ImpactFeatures, _ likeness: RunLikeness, ring: SampleRing) -> Float {
        earlyInnovation(at: onset, features, second: likeness == .looseSecond, ring: ring)
    }

    /// The ring's innovation at `onset` on the unpredicted start's attack (`runStartInnovationAttackDB`), for a
    /// `second` bounce only `runStartInnovationShortestSeconds` or more after the first; −∞ otherwise.
    private func earlyInnovation(at onset: Int64, _ features: ImpactFeatures, second: Bool, ring: SampleRing) -> Float {
        guard features.attackDB >= parameters.runStartInnovationAttackDB,
              !second || bounces.starts(at: onset, within: Int64(parameters.samples(parameters.runLikeFirstSeconds)),
                                        after: Int64(parameters.samples(parameters.runStartInnovationShortestSeconds)))
        else { return -.infinity }
        return innovationDB(at: onset, ring: ring) ?? -.infinity
    }

    /// How far the ring before an on-time candidate fails to predict its first milliseconds: for the unpredicted-bounce
    /// rule (`DetectorParameters.runInnovationDB`; −∞ where that rule cannot take it: `rules`' on-time rule's own
    /// evidence suffices, the attack is under `runInnovationAttackDB`, or it is far quieter than the last bounce), and
    /// whether the ring predicted it (`runOnTimePredictedDB`). Measured once per on-time candidate.
    func ringInnovation(at onset: Int64, _ features: ImpactFeatures, rules: CandidateRules,
                        ring: SampleRing) -> (unpredicted: Float, predicted: Bool) {
        guard parameters.runInnovationDB > 0 || parameters.runOnTimePredictedDB > 0,
              let measured = innovationDB(at: onset, ring: ring)
        else { return (-.infinity, false) }
        let eligible = parameters.runInnovationDB > 0 && !rules.onTime(features)
            && features.attackDB >= parameters.runInnovationAttackDB
            && BounceRun.difference(features.bandLevelsDB, from: bounces.lastLevels, bands: bands).mean
                >= -parameters.runInnovationQuieterDB
        return (eligible ? measured : -.infinity, measured < parameters.runOnTimePredictedDB)
    }

    /// Whether `frame` lies within `DetectorParameters.ringErrorTriggerClock` of the run's clock, or the run has no
    /// clock (or the setting is off): the ring's stirring 5–12 ms ahead of a late bounce triggered on its error, and
    /// the candidate it started held off the bounce itself.
    private func nearClock(_ frame: Int64) -> Bool {
        guard parameters.ringErrorTriggerClock > 0, let error = bounces.clockError(at: frame) else { return true }
        return error <= parameters.ringErrorTriggerClock
    }

    /// Whether the ring's prediction error may time or trigger a bounce at `frame`: in a run long enough
    /// (`DetectorParameters.ringErrorRunLength`) and, if asked, speeding up as a bouncing ball's does.
    private func ringErrorAsked(at frame: Int64) -> Bool {
        bounces.length >= parameters.ringErrorRunLength
            && (parameters.ringErrorPace <= 0 || bounces.speedsUp(at: frame, pace: parameters.ringErrorPace))
    }
}
