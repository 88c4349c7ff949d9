/// The rules a measured candidate must pass, by the evidence that triggered it, and what becomes of the hold-offs
/// it set when it fails them. Pure: the detector applies the verdict.
struct CandidateRules {
    let parameters: DetectorParameters
    let classifier: ImpactClassifier
    /// Bands `OnsetBands` measures at this rate (the broadband check asks for at most that many).
    let bands: Int

    /// What to do with a candidate.
    enum Verdict: Equatable {
        /// Report a ball.
        case impact(kind: ImpactKind, confidence: Float)
        /// Drop it; `restore` undoes the hold-offs it set (as if it had not been), then `endRefractory` ends the
        /// refractory now.
        case rejected(restore: Bool, endRefractory: Bool)

        /// Whether it reports a ball.
        var isImpact: Bool { if case .impact = self { true } else { false } }
    }

    /// The verdict on a candidate with `features` that `evidence` triggered, in a stream whose balls typically
    /// clear the room by `typicalAttackDB`; `followsImpact` when the stream reported an impact shortly before it
    /// (`DetectorParameters.runSeconds`); `likeness` when it sounds like the last impact struck again where the
    /// run's next bounce is due (`RunLikeness`); `likeStream` when it sounds like the stream's balls
    /// (`DetectorParameters.streamLikeShapeDB`); `unlikeStream` when the stream has a template of its balls and the
    /// candidate is shaped unlike it (`DetectorParameters.clearLikeShapeDB`): no clear-impact rule for it, and the
    /// resonance score must reach `DetectorParameters.unlikeResonanceAcceptance`. `earlyRunExcessDB`: the last
    /// impact's excess over the room while the run has one or two impacts (`DetectorParameters.runEarlyExcessDB`;
    /// nil in a run of three or more).
    func verdict(_ features: ImpactFeatures, evidence: TriggerEvidence, typicalAttackDB: Float,
                 followsImpact: Bool = false, earlyRunExcessDB: Float? = nil, likeness: RunLikeness = .none,
                 likeStream: Bool = false, unlikeStream: Bool = false,
                 ringInnovationDB: Float = -.infinity, ringPredicted: Bool = false) -> Verdict {
        decision(features, evidence: evidence, typicalAttackDB: typicalAttackDB, followsImpact: followsImpact,
                 earlyRunExcessDB: earlyRunExcessDB, likeness: likeness, likeStream: likeStream,
                 unlikeStream: unlikeStream, ringInnovationDB: ringInnovationDB,
                 ringPredicted: ringPredicted).verdict
    }

    /// `verdict`, and the rule that decided it (diagnostics: `ImpactDetector.candidateObserver`; an enum, nothing
    /// allocated). `ringInnovationDB`: how far the ring before an on-time candidate, a run's second or third
    /// bounce, or a loosely shaped one, fails to predict its onset (`DetectorParameters.runInnovationDB`,
    /// `runStartInnovationDB`, `runLooseInnovationDB`; −∞ when not measured); `ringPredicted` when that ring predicted
    /// an on-time candidate (`DetectorParameters.runOnTimePredictedDB`): no on-time rule takes it.
    /// `brightestBallHz`: how bright the stream's brighter balls ring (`StreamTypicals.brightestCentroidHz`; 0 while it
    /// knows too few), against which a bright flat onset is a clap (`isBrightFlat`). `clockError`: an on-time or
    /// loosely shaped later candidate's distance from the run's clock (`BounceRun.clockError`; NaN for any other),
    /// for `onClock`, `onClockLoosely` and `onClockUnlike`; `runLength`: impacts in the run before it, for
    /// `onClockUnlike`; `keepsPace` when it follows the last impact at a bouncing ball's pace (`BounceRun.keepsPace`),
    /// for `clipsOnPace`.
    func decision(_ features: ImpactFeatures, evidence: TriggerEvidence, typicalAttackDB: Float,
                  typicalCentroidHz: Float = 0, followsImpact: Bool = false, earlyRunExcessDB: Float? = nil,
                  likeness: RunLikeness = .none,
                  likeStream: Bool = false, unlikeStream: Bool = false, ringInnovationDB: Float = -.infinity, ringPredicted: Bool = false, clockError: Double = .nan,
                  runLength: Int = 0, keepsPace: Bool = false,
                  brightestBallHz: Float = 0) -> (verdict: Verdict, rule: CandidateRule) {
        if followsImpact && continuesRun(features, earlyRunExcessDB: earlyRunExcessDB) {
            return (.impact(kind: classifier.kind(of: features), confidence: classifier.acceptance), .runContinues)
        }
        // Where the run's next bounce is due, a phone clipping anew is the bounce: the last one's ring, pinned to the
        // rail, left it no attack or rise to show (`DetectorParameters.runClippedShare`), or clipping far more densely
        // than that ring on an attack (`runClippedRisingRatio`).
        if followsImpact, clipsAnewInRun(features) {
            return (.impact(kind: classifier.kind(of: features), confidence: classifier.acceptance), .runClipped)
        }
        if followsImpact, keepsPace, clipsOnPace(features) {
            return (.impact(kind: classifier.kind(of: features), confidence: classifier.acceptance), .runClippedOnPace)
        }
        if let rule = runRule(features, likeness: likeness, ringInnovationDB: ringInnovationDB,
                              ringPredicted: ringPredicted, clockError: clockError, runLength: runLength) {
            return (.impact(kind: classifier.kind(of: features), confidence: classifier.acceptance), rule)
        }
        return ruleVerdict(features, evidence: evidence, typicalAttackDB: typicalAttackDB,
                           typicalCentroidHz: typicalCentroidHz, brightestBallHz: brightestBallHz,
                           likeStream: likeStream, unlikeStream: unlikeStream)
    }

    /// Whether a candidate where a serve's first bounce is due (`StreamKinds.servesBounceDue`) is that bounce: in a
    /// room the stream's balls clear by `DetectorParameters.serveBounceQuietRoomDB` (`typicalAttackDB`), an onset
    /// clearing it by `serveBounceAttackDB`, in `serveBounceBands` bands, no thud (`leastCentroidHz`), with most of
    /// its excess in lines (`serveBounceTonality`), that rings down (`serveBounceDecayDB`) from a peaky onset
    /// (`serveBounceFlatnessDB`). A false "serve" (a clap) is followed by footsteps and the room's noise, not a ball.
    func bouncesAfterServe(_ features: ImpactFeatures, typicalAttackDB: Float) -> Bool {
        parameters.serveBounceAttackDB > 0 && typicalAttackDB >= parameters.serveBounceQuietRoomDB
            && features.attackDB >= parameters.serveBounceAttackDB
            && features.centroidHz >= parameters.leastCentroidHz(attackDB: features.attackDB, snrDB: features.snrDB)
            && features.tonality >= parameters.serveBounceTonality
            && features.risingBands >= parameters.serveBounceBands
            && features.decayDB <= parameters.serveBounceDecayDB
            && features.flatnessDB.isFinite && features.flatnessDB <= parameters.serveBounceFlatnessDB
    }

    /// Whether a candidate unlike the stream's balls is yet a very clear, peaky onset that rings down: another ball
    /// or bat than the templates hold (`DetectorParameters.unlikePeakyFlatnessDB`).
    func ringsLikeAnotherBall(_ features: ImpactFeatures) -> Bool {
        parameters.unlikePeakyFlatnessDB < 0 && features.flatnessDB.isFinite
            && features.flatnessDB <= parameters.unlikePeakyFlatnessDB
            && features.decayDB <= parameters.unlikePeakyDecayDB
            && features.attackDB >= parameters.unlikePeakyAttackDB
    }

    /// The hand rules' verdict on a candidate that does not continue a run.
    private func ruleVerdict(_ features: ImpactFeatures, evidence: TriggerEvidence, typicalAttackDB: Float,
                             typicalCentroidHz: Float, brightestBallHz: Float,
                             likeStream: Bool, unlikeStream: Bool) -> (verdict: Verdict, rule: CandidateRule) {
        // A thud that only leaks over the high-pass (a step, a kick drum, a low note) is no ball, whatever rings in
        // it (`DetectorParameters.minimumCentroidHz`).
        if features.snrDB >= 0,
           features.centroidHz < parameters.leastCentroidHz(attackDB: features.attackDB, snrDB: features.snrDB) {
            return (.rejected(restore: evidence == .bandRise, endRefractory: false), .thud)
        }
        // A clear onset whose spectrum the room cannot have filled, yet filled like noise, is a clap: a struck object
        // rings at resonances with valleys between them (`DetectorParameters.clapFlatnessDB`).
        if parameters.clapFlatnessDB < 0, features.attackDB >= parameters.clapFlatnessAttackDB,
           features.flatnessDB > parameters.clapFlatnessDB {
            return (.rejected(restore: evidence == .bandRise, endRefractory: false), .flat)
        }
        // A stream that knows its balls knows how bright they ring: a clear onset far brighter, filled like noise, is
        // a clap (`DetectorParameters.brightFlatnessDB`).
        if isBrightFlat(features, brightestBallHz: brightestBallHz, typicalAttackDB: typicalAttackDB) {
            return (.rejected(restore: evidence == .bandRise, endRefractory: false), .flat)
        }
        if likeStream && matchesStream(features, typicalAttackDB: typicalAttackDB) {
            return (.impact(kind: classifier.kind(of: features), confidence: classifier.acceptance), .streamLike)
        }
        var gated = classifier
        gated.minimumAttackDB = classifier.attackGate(typicalAttackDB: typicalAttackDB)
        // A clear onset is an impact whatever its timbre, but not just any impact: once the stream knows its balls,
        // a candidate shaped unlike them (a clap's noise band, a squeak) must show a ball's full timbre — unless it
        // strikes and rings down in lines, as a third timbre of the stream's would (`unlikePeakyFlatnessDB`).
        if unlikeStream, !ringsLikeAnotherBall(features) {
            gated.clearAttackDB = 0
            if parameters.unlikeNotStruck { gated.struckAcceptance = 1.01 }
            if parameters.unlikeResonanceAcceptance > 0 {
                gated.acceptance = max(gated.acceptance, parameters.unlikeResonanceAcceptance)
            }
        }
        if evidence == .bandRise {
            // A faint onset that no single bin showed: it must carry real energy over the room in its onset frame,
            // clear the room as far as this stream's balls do (less their spread, uncapped: in a quiet room a ball
            // the flux missed would be implausibly faint), and ring down clearly.
            guard features.snrDB >= parameters.bandRiseSNRDB else {
                return (.rejected(restore: true, endRefractory: false), .noEnergy)
            }
            gated.minimumAttackDB = max(parameters.bandRiseAttackDB, typicalAttackDB - classifier.attackBelowTypicalDB)
            gated.maximumDecayDB = min(gated.maximumDecayDB, parameters.bandRiseDecayDB)
            gated.clearDecayDB = min(gated.clearDecayDB, parameters.bandRiseDecayDB)
        }
        if evidence != .wholeBand {
            gated.acceptance = max(gated.acceptance, parameters.racketAcceptance)
            // A racket hit excites every band it has modes in at once; a voice or a note grows band by band. Not an
            // impact: the whole band may still trigger on what follows.
            if parameters.racketBands > 0, features.risingBands < min(parameters.racketBands, bands) {
                return (.rejected(restore: parameters.racketUpgrade & 2 != 0, endRefractory: false), .fewBands)
            }
        }
        // A clipped onset: something abrupt drove the phone to its rail (`DetectorParameters.clippedShare`). What
        // clipping did to its lines and its ring says nothing of what struck; its rise in several bands does.
        if clipsAnew(features), features.attackDB >= parameters.clippedAttackDB,
           features.risingBands >= parameters.clippedBands {
            return (.impact(kind: classifier.kind(of: features), confidence: classifier.acceptance), .clipped)
        }
        guard let (kind, confidence) = gated.classify(features) else {
            // Weak evidence that proved nothing holds nothing off. Not even an abrupt onset (a rise of the babble, a
            // syllable): no impact rings on after it, so it does not hold off the next onset either (a ball 10–25 ms
            // after such a candidate used to be lost to its refractory).
            return (.rejected(restore: evidence == .bandRise,
                              endRefractory: parameters.releaseAfterNonImpact
                                  && features.attackDB < gated.minimumAttackDB), CandidateRule.rejection(by: gated, features))
        }
        let rule = CandidateRule.acceptance(by: gated, features)
        // A faint onset that rings but rises in few bands, far brighter than the stream's balls (a hi-hat, a bell, a
        // squeak in a loud room), is not taken on its resonance alone (`DetectorParameters.faintBrightAttackDB`).
        if rule == .resonance, features.attackDB < parameters.faintBrightAttackDB,
           features.risingBands <= parameters.faintBrightBands, typicalCentroidHz > 0,
           features.centroidHz >= parameters.faintBrightCentroidRatio * typicalCentroidHz {
            return (.rejected(restore: evidence == .bandRise, endRefractory: false), .bright)
        }
        return (.impact(kind: kind, confidence: confidence), rule)
    }

    /// The clipped-onset rule's clipping (`DetectorParameters.clippedShare`): its first 3 ms at the rail, the 3 ms
    /// before 1/`clippedBeforeRatio` as often, or 1/`clippedRingingRatio` as often when it still rings at the rail
    /// 6–8 ms on (`clippedRingingDecayDB`): a loud ball's ring holds the rail, a clap's dies.
    func clipsAnew(_ features: ImpactFeatures) -> Bool {
        features.clipsAnew(share: parameters.clippedShare, ratio: parameters.clippedBeforeRatio)
            || parameters.clippedRingingRatio > 0 && features.decayDB >= parameters.clippedRingingDecayDB
            && features.clipsAnew(share: parameters.clippedShare, ratio: parameters.clippedRingingRatio)
    }

    /// A clear onset (`DetectorParameters.brightFlatAttackDB`), not clipped, at least `brightFlatCentroidRatio`
    /// times as bright as the stream's brighter balls (`brightestBallHz`, `StreamTypicals.brightestCentroidHz`; 0
    /// while the stream knows too few) and flatter than `brightFlatnessDB`: a clap, not a ball.
    func isBrightFlat(_ features: ImpactFeatures, brightestBallHz: Float, typicalAttackDB: Float) -> Bool {
        parameters.brightFlatnessDB < 0 && brightestBallHz > 0 && typicalAttackDB >= parameters.brightFlatQuietRoomDB
            && features.attackDB >= parameters.brightFlatAttackDB
            && !(parameters.clippedShare > 0 && features.clippedShare >= parameters.clippedShare)
            && features.centroidHz >= parameters.brightFlatCentroidRatio * brightestBallHz
            && features.flatnessDB > parameters.brightFlatnessDB
    }

    /// A ball in play bounces again: within `runSeconds` of a reported impact, an abrupt rise in several bands at
    /// once that rings down is the next bounce, however far the run has faded and however much of the last
    /// bounce's ring it rises from (its attack is measured over that ring, and the stream's typical attack, learned
    /// from the loud first bounces, says nothing of the tenth).
    func continuesRun(_ features: ImpactFeatures, earlyRunExcessDB: Float? = nil) -> Bool {
        guard parameters.runSeconds > 0, features.attackDB >= parameters.runAttackDB,
              features.decayDB <= parameters.runDecayDB else { return false }
        // A run of one or two impacts is no bouncing ball yet (a rally's hit and bounce, or a sound after a ball): a
        // candidate after it with little energy over the room, far less than the last impact had, is none of its
        // bounces (`DetectorParameters.runEarlyExcessDB`).
        if let last = earlyRunExcessDB, parameters.runEarlyExcessDB > 0, features.snrDB < parameters.runEarlyExcessDB,
           features.snrDB < last - parameters.runEarlyQuieterDB {
            return false
        }
        // …nor one that barely rises over the room (`DetectorParameters.runEarlyAttackDB`).
        if earlyRunExcessDB != nil, features.attackDB < parameters.runEarlyAttackDB { return false }
        // A faint late bounce can rise in its bands yet hold no energy over the spectral background, which the
        // ring of the run has lifted: with no excess its tonality and high share say nothing, so it must rise in
        // more bands instead.
        if parameters.runBandsWithoutExcess > 0, features.snrDB < 0 {
            return features.risingBands >= parameters.runBandsWithoutExcess
        }
        guard features.risingBands >= parameters.runBands else { return false }
        if parameters.runClippedTonalityShare > 0, features.clippedShare >= parameters.runClippedTonalityShare {
            return true
        }
        return features.highShare <= classifier.maximumHighShare && features.tonality >= parameters.runTonality
    }

    /// The last bounce of a run under way is the next one's template: a candidate that sounds like it struck again
    /// (the detector checks the likeness) need only rise abruptly in a few bands and not grow. Its tonality is not
    /// asked: the late bounces rise from the run's ring, which fills the lines the tonality measures.
    /// An on-time candidate the on-time rule does not take still matches when the ring before it could not predict
    /// its onset (`ringInnovationDB` ≥ `DetectorParameters.runInnovationDB`, `unpredicted`).
    /// An on-time candidate the ring before it predicted (`ringPredicted`) matches no rule: it is the ring's stirring.
    /// A loosely shaped bounce (`RunLikeness.looseSecond`, `.looseThird`, `.looseLater`) matches on a second bounce's
    /// evidence (`startsOnAttack` or `startUnpredicted`) only when `ringInnovationDB` reaches
    /// `DetectorParameters.runLooseInnovationDB` and its onset frame is no flatter than `runLooseFlatnessDB`; a bounce
    /// like the last of a run under way (`.underWay`) matches on that evidence too: shaped closer than the loose rule
    /// asks, it is held to no more.
    /// The rule that takes it (nil: none does), so each rule is decided once and named by what decided it.
    func runRule(_ features: ImpactFeatures, likeness: RunLikeness, ringInnovationDB: Float = -.infinity,
                 ringPredicted: Bool = false, clockError: Double = .nan, runLength: Int = 0) -> CandidateRule? {
        guard parameters.runSeconds > 0 else { return nil }
        switch likeness {
        case .none:
            return nil
        case .second, .third:
            if startsOnAttack(features) { return likeness == .second ? .runSecond : .runThird }
            return startUnpredicted(features, ringInnovationDB) ? .runStartUnpredicted : nil
        case .looseSecond, .looseThird, .looseLater:
            if likeness == .looseLater, onClockLoosely(features, ringInnovationDB, clockError: clockError)
                || onClockUnlike(features, ringInnovationDB, clockError: clockError, runLength: runLength) {
                return .runOnClock
            }
            return looselyUnpredicted(features, ringInnovationDB)
                && (startsOnAttack(features) || startUnpredicted(features, ringInnovationDB)) ? .runLoose : nil
        case .onClockUnlike:
            return onClockUnlike(features, ringInnovationDB, clockError: clockError, runLength: runLength)
                ? .runOnClock : nil
        case .onTime:
            if ringPredicted { return nil }
            if onTime(features) { return .runOnTime }
            if unpredicted(features, ringInnovationDB) { return .runUnpredicted }
            return onClock(features, ringInnovationDB, clockError: clockError) ? .runOnClock : nil
        case .underWay:
            let onAttack = features.attackDB >= parameters.runLikeAttackDB
                && features.risingBands >= parameters.runLikeBands && features.decayDB <= parameters.runDecayDB
            return onAttack || looselyUnpredicted(features, ringInnovationDB)
                && startUnpredicted(features, ringInnovationDB) ? .runLike : nil
        }
    }

    /// The loose rule's own evidence: `runLooseInnovationDB` of ring innovation, an onset frame no flatter than
    /// `runLooseFlatnessDB`.
    private func looselyUnpredicted(_ features: ImpactFeatures, _ ringInnovationDB: Float) -> Bool {
        ringInnovationDB >= parameters.runLooseInnovationDB
            && (parameters.runLooseFlatnessDB >= 0 || features.flatnessDB <= parameters.runLooseFlatnessDB)
    }

    /// A run's second or third bounce on its own evidence: an attack of `runLikeFirstAttackDB` in `runLikeBands` bands,
    /// growing by at most `runDecayDB`.
    func startsOnAttack(_ features: ImpactFeatures) -> Bool {
        features.attackDB >= parameters.runLikeFirstAttackDB && features.risingBands >= parameters.runLikeBands
            && features.decayDB <= parameters.runDecayDB
    }

    /// A run's second or third bounce the ring before it could not predict (`DetectorParameters.runStartInnovationDB`):
    /// an attack of `runStartInnovationAttackDB` in one band or more, not growing, `ringInnovationDB` over the asked
    /// innovation.
    func startUnpredicted(_ features: ImpactFeatures, _ ringInnovationDB: Float) -> Bool {
        parameters.runStartInnovationDB > 0 && ringInnovationDB >= parameters.runStartInnovationDB
            && features.attackDB >= parameters.runStartInnovationAttackDB && features.risingBands >= 1
            && features.decayDB <= 0
    }

    /// The on-time rule's own evidence: an attack of `runOnTimeAttackDB` in any bands, growing by at most
    /// `runOnTimeDecayDB`.
    func onTime(_ features: ImpactFeatures) -> Bool {
        features.attackDB >= parameters.runOnTimeAttackDB && features.decayDB <= parameters.runOnTimeDecayDB
    }

    /// An on-time candidate the ring before it could not predict (`DetectorParameters.runInnovationDB`): an attack
    /// of `runInnovationAttackDB`, growing by at most `runInnovationDecayDB`.
    /// Under `runInnovationFaintAttackDB` the innovation asked is `runInnovationFaintDB`.
    func unpredicted(_ features: ImpactFeatures, _ ringInnovationDB: Float) -> Bool {
        let asked = features.attackDB < parameters.runInnovationFaintAttackDB
            ? max(parameters.runInnovationDB, parameters.runInnovationFaintDB) : parameters.runInnovationDB
        return parameters.runInnovationDB > 0 && ringInnovationDB >= asked
            && features.attackDB >= parameters.runInnovationAttackDB
            && features.decayDB <= parameters.runInnovationDecayDB
    }

    /// An on-time candidate within `DetectorParameters.runOnClockError` of the run's clock: an attack of
    /// `runOnClockAttackDB` and an innovation of `runOnClockInnovationDB` are enough, growing by at most
    /// `runInnovationDecayDB`. NaN `clockError` (no clock) never is.
    func onClock(_ features: ImpactFeatures, _ ringInnovationDB: Float, clockError: Double) -> Bool {
        parameters.runOnClockError > 0 && clockError <= parameters.runOnClockError
            && features.attackDB >= parameters.runOnClockAttackDB
            && ringInnovationDB >= parameters.runOnClockInnovationDB
            && features.decayDB <= parameters.runInnovationDecayDB
    }

    /// A later bounce of a run of `DetectorParameters.runOnClockUnlikeRun` or more (`runLength` before it) within
    /// `runOnClockUnlikeError` of the run's clock, whatever its shape (`RunLikeness.onClockUnlike`, or a loosely
    /// shaped one): an attack of `runOnClockUnlikeAttackDB` and `runOnClockUnlikeInnovationDB` of ring innovation,
    /// not growing. NaN `clockError` never is.
    func onClockUnlike(_ features: ImpactFeatures, _ ringInnovationDB: Float, clockError: Double,
                       runLength: Int) -> Bool {
        parameters.runOnClockUnlikeError > 0 && runLength >= parameters.runOnClockUnlikeRun
            && clockError <= parameters.runOnClockUnlikeError
            && features.attackDB >= parameters.runOnClockUnlikeAttackDB
            && ringInnovationDB >= parameters.runOnClockUnlikeInnovationDB && features.decayDB <= 0
    }

    /// A loosely shaped later bounce (`RunLikeness.looseLater`) within `DetectorParameters.runOnClockLooseError` of the
    /// run's clock, on the on-time rule's evidence (`onTime`) and `runOnClockLooseInnovationDB` of ring innovation.
    func onClockLoosely(_ features: ImpactFeatures, _ ringInnovationDB: Float, clockError: Double) -> Bool {
        parameters.runOnClockLooseInnovationDB > 0 && clockError <= parameters.runOnClockLooseError
            && ringInnovationDB >= parameters.runOnClockLooseInnovationDB
            && onTime(features)
    }

    /// Where a run's next bounce is due: its first 3 ms clip `runClippedShare` of the time, the 3 ms before at most
    /// 1/`runClippedBeforeRatio` as often, or 1/`runClippedRisingRatio` as often on an attack of
    /// `runClippedRisingAttackDB` (a ring the AGC's high gain holds at the rail).
    func clipsAnewInRun(_ features: ImpactFeatures) -> Bool {
        features.clipsAnew(share: parameters.runClippedShare, ratio: parameters.runClippedBeforeRatio)
            || parameters.runClippedRisingRatio > 0 && features.attackDB >= parameters.runClippedRisingAttackDB
            && features.clipsAnew(share: parameters.runClippedShare, ratio: parameters.runClippedRisingRatio)
    }

    /// A due candidate at a bouncing ball's pace (the detector checks it) that clips anew on an attack
    /// (`DetectorParameters.runClippedPaceShare`, `runClippedPaceAttackDB`), growing by at most
    /// `runClippedPaceDecayDB`.
    func clipsOnPace(_ features: ImpactFeatures) -> Bool {
        parameters.runClippedPaceShare > 0 && features.attackDB >= parameters.runClippedPaceAttackDB
            && features.decayDB <= parameters.runClippedPaceDecayDB
            && features.clipsAnew(share: parameters.runClippedPaceShare, ratio: parameters.runClippedRisingRatio)
    }

    /// The stream's balls are its template: a candidate shaped like them (the detector checks the likeness) that
    /// clears the room by `streamLikeAttackDB` and as far as this room's balls do, less
    /// `streamLikeBelowTypicalDB` (uncapped: in a quiet room a ball clears it by 30 dB and more), rising abruptly in a
    /// few bands and not growing, is a ball.
    func matchesStream(_ features: ImpactFeatures, typicalAttackDB: Float) -> Bool {
        parameters.streamLikeShapeDB > 0
            && features.attackDB >= max(parameters.streamLikeAttackDB, typicalAttackDB - parameters.streamLikeBelowTypicalDB)
            && features.risingBands >= parameters.runLikeBands && features.decayDB <= 0
    }
}

/// How a candidate sounds against the stream's last impact, where a ball bouncing on would strike next.
enum RunLikeness: Equatable {
    /// Unlike it, or not where a bounce is due.
    case none
    /// Like the last bounce of a run that speeds up (`DetectorParameters.runLikeShapeDB`, `runLikePace`).
    case underWay
    /// Closely like a lone impact, up to `DetectorParameters.runLikeFirstSeconds` after it: its second bounce.
    case second
    /// Like a lone impact within `DetectorParameters.runLikeFirstLooseShapeDB` but not closely, where its second
    /// bounce is due: its second bounce if the ring before it could not predict it (`runLooseInnovationDB`).
    case looseSecond
    /// Like the second bounce of a run of two within `DetectorParameters.runLikeThirdLooseShapeDB` but not closely,
    /// where its third is due: its third bounce if the ring before it could not predict it.
    case looseThird
    /// Like the last bounce of a run of three or more that speeds up, within
    /// `DetectorParameters.runLooseLaterShapeDB` but not as closely as `underWay`, where its next bounce is due: that
    /// bounce if the ring before it could not predict it.
    case looseLater
    /// Like the last bounce of a run that speeds up, and on time by the run's own ratio
    /// (`DetectorParameters.runOnTime`).
    case onTime
    /// Closely like the second bounce of a run of two, where its third is due (`DetectorParameters.runLikeThirdShapeDB`).
    case third
    /// Shaped unlike the last bounce of a run under way that keeps its clock, no louder than it, but within
    /// `DetectorParameters.runOnClockUnlikeError` of that clock: its next bounce if it rises and the ring before it
    /// could not predict it.
    case onClockUnlike
}

/// The rule that accepted or rejected a candidate (`CandidateRules.decision`; `pongd detect --candidates` writes it
/// as the `verdict` column). The detector reads it after the rules: applause vetoes only what a timbre rule accepted
/// (`yieldsToApplause`) and counts only sounds that did not hold on (`ImpactDetector`), and a rejected run's last
/// candidate seeds the run's clock (`rejectedRun`).
package enum CandidateRule: UInt8, Sendable {
    /// Accepted: it continues a run by the run rule (`CandidateRules.continuesRun`).
    case runContinues
    /// Accepted: where the run's next bounce is due, the phone clips anew (`DetectorParameters.runClippedShare`).
    case runClipped
    /// Accepted: at a bouncing ball's pace, the phone clips anew on an attack (`DetectorParameters.runClippedPaceShare`).
    case runClippedOnPace
    /// Accepted: like the last bounce of a run that speeds up (`RunLikeness.underWay`).
    case runLike
    /// Accepted: a lone impact's second bounce (`RunLikeness.second`).
    case runSecond
    /// Accepted: a run's bounce shaped loosely like the last impact, unpredicted by the ring before it and not flat
    /// (`RunLikeness.looseSecond`, `.looseThird`, `.looseLater`).
    case runLoose
    /// Accepted: a run's second or third bounce short of their attack but unpredicted by the ring before it
    /// (`DetectorParameters.runStartInnovationDB`).
    case runStartUnpredicted
    /// Accepted: like the last bounce and on time (`RunLikeness.onTime`).
    case runOnTime
    /// Accepted: like the last bounce, on time, short of the on-time rule's attack or growth, but unpredicted by the
    /// ring before it (`DetectorParameters.runInnovationDB`).
    case runUnpredicted
    /// Accepted: like the last bounce, closely on the run's clock, on less attack and innovation than the on-time and
    /// unpredicted rules ask (`DetectorParameters.runOnClockError`), or shaped loosely like it and closer still, on
    /// less innovation than the loose rule asks (`runOnClockLooseInnovationDB`).
    case runOnClock
    /// Accepted: a run of two's third bounce (`RunLikeness.third`).
    case runThird
    /// Accepted: the last of a rejected run on a bouncing ball's clock (`DetectorParameters.rejectedRunShapeDB`).
    case rejectedRun
    /// Accepted: a serve's first bounce, where it is due (`CandidateRules.bouncesAfterServe`).
    case serveBounce
    /// Accepted: shaped like the stream's balls (`CandidateRules.matchesStream`).
    case streamLike
    /// Accepted: rejected by the rules in a loud room, but the learned recovery calls it a ball (`CandidateModel`).
    case model
    /// Accepted: rejected by the rules, but it sounds like the stream's own balls (`BallTemplates`).
    case template
    /// Accepted by the resonance score.
    case resonance
    /// Accepted by the struck-object score.
    case struck
    /// Accepted as a clear impact.
    case clear
    /// Accepted: an onset clipped at the phone's rail, rising in several bands (`DetectorParameters.clippedShare`).
    case clipped
    /// Rejected: a thud under the minimum centroid.
    case thud
    /// Rejected: a clear onset as flat as noise (`DetectorParameters.clapFlatnessDB`), or a flat one far brighter than
    /// the stream's balls in a quiet room (`DetectorParameters.brightFlatnessDB`).
    case flat
    /// Rejected: a band-rise candidate without energy over the room in its onset frame.
    case noEnergy
    /// Rejected: a weak trigger's candidate rising in too few bands.
    case fewBands
    /// Rejected: its attack under the gate.
    case faint
    /// Rejected: too much of it over 6.5 kHz (a hi-hat).
    case bright
    /// Rejected: it does not ring down (a voice, a squeak).
    case held
    /// Rejected: impulsive, but no score calls it a ball.
    case notBall
    /// Rejected: accepted on its timbre alone, but within applause (`ApplauseTrain`).
    case applause
    /// Rejected: triggered inside a report's refractory to replace it (`RunEvidence.mayReplaceLast`), but not on the
    /// clock the run had before that report.
    case notReplacing

    /// Its name in `pongd detect --candidates`.
    package var name: String {
        switch self {
        case .runContinues: "run"
        case .runClipped: "runclip"
        case .runClippedOnPace: "runclippace"
        case .runLike: "runlike"
        case .runSecond: "second"
        case .runStartUnpredicted: "start-unpredicted"
        case .runLoose: "loose"
        case .runOnTime: "ontime"
        case .runUnpredicted: "unpredicted"
        case .runOnClock: "onclock"
        case .runThird: "third"
        case .rejectedRun: "rejrun"
        case .serveBounce: "servebounce"
        case .streamLike: "streamlike"
        case .model: "model"
        case .template: "template"
        case .resonance: "resonance"
        case .struck: "struck"
        case .clear: "clear"
        case .clipped: "clipped"
        case .thud: "x-thud"
        case .flat: "x-flat"
        case .noEnergy: "x-noenergy"
        case .fewBands: "x-fewbands"
        case .faint: "x-faint"
        case .bright: "x-bright"
        case .held: "x-held"
        case .notBall: "x-notball"
        case .applause: "x-applause"
        case .notReplacing: "x-notreplacing"
        }
    }

    /// Whether the learned recovery (`CandidateModel`) may give back a candidate rejected by this rule: the
    /// rejections a loud room's noise makes of a ball (too faint, no score calls it one, its excess centroid
    /// lowered into a thud's, no energy over the room), not a run's, applause's or a timbre gate's.
    var recoverable: Bool {
        switch self {
        case .faint, .notBall, .thud, .noEnergy: true
        default: false
        }
    }

    /// Whether it accepted a candidate on its timbre alone, not as a run's next bounce: what applause vetoes. (Vetoing
    /// the run rule's too cost the tuning drops a sixth of their bounces: a train may skip sounds, and some bounces
    /// of a dropped ball, every other one, keep a steady beat.)
    var yieldsToApplause: Bool {
        switch self {
        case .clear, .clipped, .struck, .resonance, .streamLike, .model, .runLoose, .template, .serveBounce: true
        default: false
        }
    }

    /// Whether applause vetoes it even shortly after an impact, where a run's bounce is due: a serve's bounce is
    /// taken on the order of play and less attack, and within applause a clap falls in its window as often as the
    /// ball (real applause between real strokes: 11 more reports of claps without the veto, no ball more).
    var yieldsToApplauseAfterImpact: Bool { self == .serveBounce }

    /// Whether it accepted a candidate as a later bounce of a run under way, on the run's clock or shape: what a
    /// ring's stirring just before a bounce is taken for, which a bounce on the clock may replace
    /// (`DetectorParameters.runReplaceSeconds`).
    var continuesLaterBounce: Bool {
        switch self {
        case .runContinues, .runLike, .runOnTime, .runUnpredicted, .runOnClock: true
        default: false
        }
    }

    /// Whether a report it accepted teaches the stream's typicals (`StreamTypicals`: attack, flux, shapes): every
    /// report but a serve's bounce, which rises over the serve's ring and says nothing of how far balls clear the room
    /// (teaching it let the ball templates take two false reports at 10 dB on the tuning rallies).
    var teachesTypicals: Bool { self != .serveBounce }

    /// Whether a report it accepted may teach the stream's templates (`BallTemplates`): accepted on the ball's own
    /// timbre, not on the run's evidence nor on the templates themselves.
    var learnsTemplate: Bool {
        switch self {
        case .clear, .struck, .resonance, .streamLike: true
        default: false
        }
    }

    /// Why `classifier` rejected a candidate with `features`.
    static func rejection(by classifier: ImpactClassifier, _ features: ImpactFeatures) -> CandidateRule {
        if features.attackDB < classifier.minimumAttackDB { return .faint }
        if features.highShare > classifier.maximumHighShare { return .bright }
        return classifier.isImpulsive(features) ? .notBall : .held
    }

    /// Which of `classifier`'s scores accepted a candidate with `features` (in `ImpactClassifier.classify`'s order).
    static func acceptance(by classifier: ImpactClassifier, _ features: ImpactFeatures) -> CandidateRule {
        if classifier.resonanceProbability(features) >= classifier.acceptance { return .resonance }
        if classifier.struckProbability(features) >= max(classifier.struckAcceptance, classifier.acceptance) {
            return .struck
        }
        return .clear
    }
}

/// What the detector knew of a candidate when it decided it (`ImpactDetector.candidateObserver`, diagnostics).
package struct CandidateDecision: Sendable {
    /// The rule that decided it.
    package var rule: CandidateRule
    /// Impacts in the stream's current run before it (1 = a lone impact).
    package var runLength: Int
    /// It fell where the run's next bounce was due (and, after a lone impact, sounded like it).
    package var due: Bool
    /// The run was speeding up to it (`BounceRun.speedsUp`).
    package var speedingUp: Bool
    /// Its band levels against the last reported impact's (`BounceRun.difference`): mean difference and spread, dB.
    package var lastMeanDB: Float
    /// See `lastMeanDB`.
    package var lastSpreadDB: Float
    /// Its onset's relative distance from the run's clock (`BounceRun.clockError`; NaN without a clock).
    package var clockError: Double = .nan
    /// The ring's prediction error over its first milliseconds, over the fit's (`RingPredictor.innovationDB`; NaN
    /// when not measured).
    package var innovationDB: Float = .nan
    /// Its best cosine with the stream's templates (`BallTemplates`; NaN when not scored) and the stream's
    /// reference then (NaN before it has one).
    package var templateCosine: Float = .nan
    /// See `templateCosine`.
    package var templateReference: Float = .nan
    /// Which rule placed its onset.
    package var timing = OnsetTiming.edge
    /// How far the stream's recent balls cleared the room then (dB, `StreamTypicals.attackDB`): the room's loudness
    /// as the stream's balls measure it.
    package var typicalAttackDB: Float = .nan
    /// Its bin-by-bin rise over the room (`WhitenedRise`).
    package var rise = WhitenedRise.unmeasured
}
