import Foundation

/// The streaming ball-impact detector: PCM in, `Impact`s out, each within 10 ms of its onset.
///
/// Per hop (a quarter of a ~5 ms frame) it runs a real FFT (`av_tx`) and a whitened log-spectral flux with an
/// adaptive threshold, plus two narrower triggers for faint impacts (the racket band's flux, the band energies'
/// rise; see `TriggerEvidence`); a trigger is timed to the sample in the high-passed signal (`OnsetRefiner`), and
/// 8 ms after the onset the rules (`CandidateRules`, `ImpactClassifier`) accept or reject it from onset-aligned
/// features (`FeatureExtractor`) and what the stream's run of bounces says of it (`RunEvidence`); applause may veto
/// it (`ApplauseTrain`). Chunks of any size, mono or interleaved stereo (mixed down), any rate ≥ 8 kHz. Everything is
/// allocated in `init`; `process` allocates nothing. One detector per stream; not thread-safe.
public final class ImpactDetector {
    /// Input format.
    public let format: AudioFormat
    /// Sizes and thresholds in use.
    public let parameters: DetectorParameters
    /// The accept/reject and kind rule.
    public let classifier: ImpactClassifier
    /// Called for every candidate with its features, its trigger flux, which trigger saw it and what decided it,
    /// whether accepted or not (diagnostics; nil in production).
    package var candidateObserver: ((_ onset: Int64, _ features: ImpactFeatures, _ flux: Float,
                                     _ evidence: TriggerEvidence, _ decision: CandidateDecision) -> Void)?
    /// Called at every hop end with the whole band's and the racket band's flux and trigger levels (diagnostics).
    package var hopObserver: ((_ end: Int64, _ flux: Float, _ threshold: Float, _ racket: Float,
                               _ racketThreshold: Float) -> Void)?

    private let fft: RealFFT
    private let window: UnsafeMutablePointer<Float>
    private let raw: SampleRing
    private let highPassed: SampleRing
    private var highPass: HighPassCascade
    private var flux: SpectralFlux
    private var bandRise: BandRise
    private var statistics = FluxStatistics()
    private var racketStatistics = FluxStatistics()
    /// The racket band's share of the onset band's bins: its trigger floor is the whole band's floor scaled by it.
    private let racketShare: Float
    private let extractor: FeatureExtractor
    private let adaptRate: Float
    private let inverseChannels: Float

    /// Frames consumed so far (mono).
    private var written: Int64 = 0
    private var hopPhase = 0
    private var hopsSeen = 0
    /// A refined onset waiting for its decision, with its trigger flux, its edge's peak magnitude and the noise
    /// RMS it was judged against.
    private var pending: ImpactCandidate?
    /// The whole band's flux at the trigger of the candidate whose refractory holds (`strongerOnsetRatio`; infinite
    /// before the first and after a weak one: nothing is stronger).
    private var refractoryFlux: Float = .infinity
    private var holdOffs = HoldOffs()
    /// The stream's run of bounces: where the next is due, how a candidate fits it, how its ring times one.
    private let run: RunEvidence
    /// The stream's last impulsive candidates, for the rhythm of applause (`ApplauseTrain`).
    private var applause: ApplauseTrain
    private var typicals: StreamTypicals
    /// The stream's table and racket, taught by its serves.
    private var kinds: StreamKinds
    private let rules: CandidateRules
    /// The learned recovery (nil when `DetectorParameters.candidateModel` is off or the rate has too few bands).
    private let model: CandidateModel?
    /// The bin-by-bin rise the recovery reads (`WhitenedRise`).
    private let riseMeter: WhitenedRiseMeter
    /// The stream's own balls as waveform templates (nil when `DetectorParameters.templateCount` is 0).
    private let templates: BallTemplates?

    /// Creates a detector; throws `unsupported` for fewer than 1 or more than 8 channels, or a rate below 8 kHz.
    /// `tune` may adjust the rate-derived parameters (diagnostics and experiments).
    public init(format: AudioFormat, classifier: ImpactClassifier = ImpactClassifier(),
                tune: (inout DetectorParameters) -> Void = { _ in }) throws(AudioError) {
        guard format.sampleRate >= 8000, format.sampleRate <= 384_000 else {
            throw .unsupported("detector: sample rate \(format.sampleRate) Hz is outside 8–384 kHz")
        }
        guard (1...8).contains(format.channels) else {
            throw .unsupported("detector: \(format.channels) channels (1–8)")
        }
        var parameters = DetectorParameters(sampleRate: format.sampleRate)
        tune(&parameters)
        self.format = format
        self.parameters = parameters
        self.classifier = classifier
        self.fft = try RealFFT(size: parameters.fftSize)
        let n = parameters.fftSize
        window = .allocate(capacity: n)
        for i in 0..<n {
            let s = Float.pi * Float(i) / Float(n)
            window[i] = Float(sin(Double(s)) * sin(Double(s)))
        }
        // Enough history for the noise window, the search region, the classifier's decay window and the attack's
        // reference (with its filters' settling) before the onset.
        templates = BallTemplates(parameters: parameters)
        // …and the templates' window, read at the decision (its delay after the onset).
        let templateHistory = templates.map { $0.before + parameters.decisionDelay } ?? 0
        let history = max(parameters.samples(max(0.05, parameters.attackReferenceSeconds + 0.02,
                                                 parameters.runOnsetReachSeconds + parameters.runOnsetFitSeconds + 0.002,
                                                 parameters.runErrorReachSeconds + parameters.runOnsetFitSeconds + 0.01)),
                          templateHistory)
            + 4 * n
        raw = SampleRing(minimumCapacity: history)
        highPassed = SampleRing(minimumCapacity: history)
        highPass = HighPassCascade(cutoff: 700, sampleRate: format.sampleRate)
        flux = SpectralFlux(bins: parameters.classifierBins, band: parameters.bandBins,
                            racketBand: parameters.racketBins, gate: parameters.gateNats,
                            warmUpHops: parameters.samples(parameters.warmUpSeconds) / parameters.hop,
                            lag: parameters.fluxLag)
        bandRise = BandRise(sampleRate: format.sampleRate, fftSize: parameters.fftSize,
                            warmUpHops: parameters.samples(parameters.warmUpSeconds) / parameters.hop)
        let bands = OnsetBands(sampleRate: format.sampleRate, referenceSeconds: parameters.attackReferenceSeconds)
        extractor = FeatureExtractor(parameters: parameters, window: window, bands: bands)
        rules = CandidateRules(parameters: parameters, classifier: classifier, bands: bands.bands)
        model = parameters.candidateModel && bands.bands >= CandidateModel.bandCount ? CandidateModel() : nil
        riseMeter = WhitenedRiseMeter(fftSize: n, bins: parameters.bandBins, sampleRate: format.sampleRate)
        typicals = StreamTypicals(warmStart: parameters.warmStart, templates: parameters.streamTemplates,
                                  timbres: parameters.streamTimbres, bands: bands.bands, startAttackDB: parameters.typicalStartAttackDB,
                                  priorWeight: parameters.typicalPriorWeight,
                                  fluxWarmStart: parameters.typicalFluxWarmStart,
                                  startFlux: parameters.typicalStartFlux)
        kinds = StreamKinds(settings: StreamKinds.Settings(
            pause: Int64(parameters.samples(parameters.kindPauseSeconds)),
            serveBounce: Int64(parameters.samples(parameters.kindServeBounceSeconds.lowerBound))...Int64(
                parameters.samples(parameters.kindServeBounceSeconds.upperBound)),
            marginDB: parameters.kindMarginDB, memory: parameters.kindMemory,
            returnTeaches: parameters.kindReturnTeaches, serveBouncesUntaught: parameters.kindServeBouncesUntaught,
            templates: parameters.kindTemplates, uncertaintyDB: parameters.kindUncertaintyDB,
            shownDB: parameters.kindShownDB),
            bands: bands.bands)
        run = RunEvidence(parameters: parameters, bands: bands.bands)
        applause = ApplauseTrain(parameters: parameters)
        adaptRate = Float(Double(parameters.hop) / (parameters.backgroundSeconds * Double(format.sampleRate)))
        inverseChannels = 1 / Float(format.channels)
        racketShare = Float(parameters.racketBins.count) / Float(parameters.bandBins.count)
    }

    deinit {
        window.deallocate()
        raw.deallocate()
        highPassed.deallocate()
        flux.deallocate()
        bandRise.deallocate()
    }

    /// Feeds interleaved samples (any count; a partial frame at the end is ignored) and reports impacts.
    public func process(_ samples: UnsafeBufferPointer<Float>, onImpact: (Impact) -> Void) {
        let channels = format.channels
        let frames = samples.count / channels
        guard frames > 0, let base = samples.baseAddress else { return }
        var frame = 0
        while frame < frames {
            // Run up to the next hop boundary on local copies of the per-sample state.
            let count = min(frames - frame, parameters.hop - hopPhase)
            var filter = highPass
            var index = written
            let scale = inverseChannels
            /// Frame `f` mixed down to one sample.
            @inline(__always) func mixed(_ f: Int) -> Float {
                guard channels > 1 else { return base[f] }
                var sum = base[f * channels]
                for c in 1..<channels { sum += base[f * channels + c] }
                return sum * scale
            }
            var f = frame
            let end = frame + count
            while f < end {
                // A NaN or infinity (a corrupt float file) would poison every running mean for the rest of the
                // stream: it counts as silence.
                if index & 7 == 0, end - f >= 8 {
                    // Eight at a time: the high-pass as one block step, the rings written eight wide.
                    var mono = SIMD8<Float>()
                    if channels == 1 {
                        mono = UnsafeRawPointer(base + f).loadUnaligned(as: SIMD8<Float>.self)
                    } else {
                        for k in 0..<8 { mono[k] = mixed(f + k) }
                    }
                    mono.replace(with: 0, where: .!((mono - mono) .== 0))  // x − x is NaN where x is not finite
                    raw.write(mono, at: index)
                    highPassed.write(filter.process(mono), at: index)
                    index += 8
                    f += 8
                    continue
                }
                var mono = mixed(f)
                if !mono.isFinite { mono = 0 }
                raw.write(mono, at: index)
                highPassed.write(filter.process(mono), at: index)
                index += 1
                f += 1
            }
            highPass = filter
            written = index
            hopPhase += count
            frame += count
            if hopPhase == parameters.hop {
                hopPhase = 0
                endOfHop(onImpact: onImpact)
            }
        }
    }

    /// Ends the stream: flushes a pending candidate by feeding silence past its decision point.
    public func finish(onImpact: (Impact) -> Void) {
        var remaining = parameters.decisionDelay + parameters.fftSize + parameters.hop
        withUnsafeTemporaryAllocation(of: Float.self, capacity: format.channels * parameters.hop) { zeros in
            zeros.initialize(repeating: 0)
            while pending != nil, remaining > 0 {
                process(UnsafeBufferPointer(zeros), onImpact: onImpact)
                remaining -= parameters.hop
            }
        }
    }

    /// A hop's end: its spectrum's triggers, the candidate they start or upgrade, and a due candidate's decision.
    private func endOfHop(onImpact: (Impact) -> Void) {
        let (strength, evidence) = hopTrigger()
        admit(evidence, strength: strength)
        if let candidate = pending, written >= candidate.onset + Int64(parameters.decisionDelay) {
            pending = nil
            if let later = run.retimed(candidate, ring: highPassed, end: written)
                ?? run.earlyRetimed(candidate, ring: highPassed, end: written) {
                commit(later)
            } else if !decide(candidate, onImpact: onImpact),
                      let later = run.retimed(candidate, ring: highPassed, end: written, rejected: true) {
                commit(later)
            }
        }
    }

    /// The frame ending this hop through the FFT: the whole band's flux and which trigger, if any, fired on it (three
    /// triggers, strongest evidence first: see `TriggerEvidence`); the flux statistics learn from the hop.
    private func hopTrigger() -> (strength: Float, evidence: TriggerEvidence?) {
        let n = parameters.fftSize
        let frame = raw.span(from: written - Int64(n))
        for i in 0..<n { fft.input[i] = frame[i] * window[i] }
        fft.forward()
        let adapting = holdOffs.adapting(at: written)
        let strength = flux.update(fft, adapt: adapting ? adaptRate : 0)
        bandRise.update(fft)
        let floor = min(parameters.minimumFlux, max(parameters.lowestFlux, parameters.fluxShareOfTypical * typicals.flux))
        let threshold = statistics.threshold(deviations: parameters.deviations, minimum: floor)
        // The racket band alone: a racket hit's energy lies in 1–4 kHz, where babble lives. Summed over the whole
        // onset band, the babble's random rises in the other bins swamp it; over its own band, against that band's
        // own statistics, it stands out (the matched band of a matched filter).
        let racket = flux.racketFlux
        let racketThreshold = racketStatistics.threshold(
            deviations: parameters.racketDeviations,
            minimum: floor * racketShare * parameters.racketMinimumScale)
        if adapting {
            let rate = max(adaptRate, 1 / Float(max(hopsSeen, 1)))
            statistics.add(strength, rate: rate)
            racketStatistics.add(racket, rate: rate)
        }
        hopsSeen += 1
        hopObserver?(written, strength, threshold, racket, racketThreshold)

        // Where a run's next bounce is due, the band rise may trigger on less.
        let bandRiseTrigger = run.bandRiseTriggerDB(at: written - Int64(parameters.fftSize / 2))
        let evidence: TriggerEvidence? =
            if strength > threshold { .wholeBand }
            else if parameters.racketTrigger, racket > racketThreshold { .racketBand }
            else if parameters.bandRiseTriggerDB > 0, bandRise.strength > bandRiseTrigger { .bandRise }
            else { nil }
        return (strength, evidence)
    }

    /// What a hop's trigger (`evidence`, at the whole band's flux `strength`) does: starts a candidate unless one
    /// waits or the refractory holds, supersedes a weak one, upgrades or re-anchors the waiting one; where a run's
    /// next bounce is due and nothing started, the ring's prediction error may start one.
    private func admit(_ evidence: TriggerEvidence?, strength: Float) {
        // Bit 4: a weak candidate never holds off the whole band: while it waits, or once rejected (from the
        // hold-offs before it), a whole-band trigger takes its place as if it had not been.
        let supersede = parameters.racketUpgrade & 4 != 0
        if pending == nil, !holdOffs.refractory(at: written), let evidence {
            trigger(strength: strength, evidence: evidence)
        } else if pending == nil, evidence == .wholeBand, parameters.strongerOnsetRatio > 0,
                  strength > parameters.strongerOnsetRatio * refractoryFlux {
            // Decided, and still in its refractory: an onset several times stronger is no ring of it.
            trigger(strength: strength, evidence: .wholeBand)
        } else if pending == nil, let evidence, run.mayReplaceLast(at: written) {
            // The last report may have been a stirring ahead of the bounce (`RunEvidence.replaces`): a candidate
            // only for that, whose hold-offs are undone if it is not.
            holdOffs.saveBeforeWeak()
            trigger(strength: strength, evidence: evidence)
            pending?.onlyReplacing = true
        } else if supersede, evidence == .wholeBand,
                  pending?.isWeak ?? holdOffs.mayReplaceReleased(at: written) {
            trigger(strength: strength, evidence: .wholeBand)
            if let candidate = pending { reanchor(candidate) }
        } else if let candidate = pending {
            // The whole band saw it too (a hop or two after the racket band): full evidence of an impact.
            if candidate.isWeak, evidence == .wholeBand, parameters.racketUpgrade & 1 != 0 {
                pending?.evidence = .wholeBand
                pending?.flux = strength
            }
            if let current = pending { reanchor(current) }
        }
        // Nothing triggered (or the trigger found no edge over the ring) where a run's next bounce is due.
        if pending == nil, !holdOffs.refractory(at: written),
           let onset = run.hiddenBounceOnset(ring: highPassed, end: written) {
            triggerOnRingError(at: onset, strength: strength)
        }
    }

    /// How `OnsetRefiner` finds a trigger's edge in the high-passed samples.
    private var refinerSettings: OnsetRefiner.Settings {
        OnsetRefiner.Settings(
            noiseSamples: parameters.samples(parameters.noiseSeconds), noiseFactor: parameters.onsetNoiseFactor,
            peakShare: parameters.onsetPeakShare, gapSamples: parameters.samples(parameters.onsetGapSeconds),
            maximumExtension: parameters.samples(parameters.onsetExtensionSeconds),
            extensionShare: parameters.onsetExtensionShare)
    }

    /// Starts a candidate at the edge the trigger found in the last frame and a hop, timed by the run's ring where
    /// a bounce is due (`RunEvidence.onset(of:)`); a weak trigger's hold-offs can be undone.
    private func trigger(strength: Float, evidence: TriggerEvidence) {
        if evidence != .wholeBand { holdOffs.saveBeforeWeak() }
        let searchEnd = written
        let searchStart = written - Int64(parameters.fftSize + parameters.hop)
        guard let edge = OnsetRefiner.edge(in: highPassed, searchStart: searchStart, searchEnd: searchEnd,
                                           settings: refinerSettings)
        else { return }
        // A bounce where the run's next is due, heard against the last one's ring, is timed by the ring.
        let onset = run.onset(of: edge, ring: highPassed, searchStart: searchStart, searchEnd: searchEnd)
        commit(ImpactCandidate(onset: onset, flux: strength, peak: edge.peak, noise: edge.noiseRMS,
                               evidence: evidence, timing: onset == edge.onset ? .edge : .ring))
    }

    /// A bounce hidden under the last one's ring, heard at `onset` by its prediction error
    /// (`RunEvidence.hiddenBounceOnset`). Weak evidence (the band rise's rules): its hold-offs are undone if it is
    /// rejected.
    private func triggerOnRingError(at onset: Int64, strength: Float) {
        var peak: Float = 0
        var index = onset
        while index < written {
            peak = max(peak, abs(highPassed[index]))
            index += 1
        }
        let noiseSamples = max(1, parameters.samples(parameters.noiseSeconds))
        let noise = FeatureExtractor.energy(highPassed, from: onset - Int64(noiseSamples), count: noiseSamples)
        holdOffs.saveBeforeWeak()
        commit(ImpactCandidate(onset: onset, flux: strength, peak: peak, noise: noise.squareRoot(), evidence: .bandRise,
                               timing: .ringError))
    }

    /// Makes `candidate` the pending one and sets its refractory and quiet hold-offs.
    private func commit(_ candidate: ImpactCandidate) {
        pending = candidate
        refractoryFlux = candidate.evidence == .wholeBand ? candidate.flux : .infinity
        holdOffs.commit(onset: candidate.onset, refractory: Int64(parameters.samples(parameters.refractorySeconds)),
                        quiet: Int64(parameters.samples(0.04)))
    }

    /// A transform codec smears quantisation noise over its block before a transient (pre-echo, ~10 dB under the
    /// edge, a few ms ahead of it), and that noise can trip the trigger before the impact itself is in the frame.
    /// While a candidate waits for its decision, a sample more than 1 / `onsetPeakShare` times its edge's peak is
    /// what the refiner would have chosen had its search region reached this far: everything so far lies below
    /// that edge's onset level. The candidate then moves to the new edge (judged against the noise before the old
    /// one), and its decision waits the full delay after the new onset, so the report still comes within 10 ms of it.
    private func reanchor(_ candidate: ImpactCandidate) {
        let hop = Int64(parameters.hop)
        let samples = highPassed.span(from: written - hop)
        var loudest: Float = 0
        for i in 0..<Int(hop) { loudest = max(loudest, abs(samples[i])) }
        guard loudest * parameters.onsetPeakShare > candidate.peak * parameters.reanchorMargin else { return }
        let searchStart = max(candidate.onset + 1, written - Int64(parameters.fftSize + parameters.hop))
        guard let edge = OnsetRefiner.edge(in: highPassed, searchStart: searchStart, searchEnd: written,
                                           settings: refinerSettings, noiseRMS: candidate.noise),
              edge.onset > candidate.onset
        else { return }
        commit(ImpactCandidate(onset: edge.onset, flux: candidate.flux, peak: edge.peak, noise: candidate.noise,
                               evidence: candidate.evidence, timing: .reanchored))
    }

    /// A candidate in a ring pinned to the phone's rail, moved to where the rail holds the signal far more often
    /// (`RunEvidence.clipRetimed`), to be decided again there: an accepted one (the ring's stirring at a peak), or a
    /// rejected one in a run of one or two whose refractory would hold off the bounce it ran ahead of — to a stretch
    /// at the rail `runClipRetimeRejectedShare` of the time, then to the refiner's edge within `runClipRetimeRefine`
    /// of it. Nil when it stays.
    private func clipRetimed(_ candidate: ImpactCandidate, _ features: ImpactFeatures, verdict: CandidateRules.Verdict,
                             rule: CandidateRule, innovationDB: Float) -> ImpactCandidate? {
        // Applause's veto stands: a clap it turned down is not moved to the next one.
        let rejected = !verdict.isImpact
        guard rule != .applause,
              var later = run.clipRetimed(candidate, raw: raw, end: written, attackDB: features.attackDB,
                                          innovationDB: innovationDB, rejected: rejected)
        else { return nil }
        if rejected, parameters.runClipRetimeRefine > 0,
           let edge = OnsetRefiner.edge(in: highPassed, searchStart: later.onset,
                                        searchEnd: min(written, later.onset + Int64(parameters.samples(
                                            parameters.runClipRetimeRefine))),
                                        settings: refinerSettings) {
            later.onset = max(later.onset, edge.onset)
            later.peak = edge.peak
            later.noise = edge.noiseRMS
        }
        return later
    }

    /// Whether the stream's templates (`BallTemplates`) give back a candidate the rules rejected: one that rose by
    /// `templateScoreAttackDB`…`templateRecoverAttackDB` in a loud room and sounds like the stream's own balls. Scored
    /// only where it could change the verdict (the cost: most rejected candidates are the room's); the cosine for
    /// diagnostics (NaN when not scored) and whether it is a ball.
    private func templateRecovery(_ candidate: ImpactCandidate, _ features: ImpactFeatures, rule: CandidateRule)
        -> (cosine: Float, recovered: Bool) {
        guard let templates, rule != .thud || parameters.templateThudAcceptShare > 0,
              let reference = templates.reference(minimum: parameters.templateMinimum),
              written >= candidate.onset + Int64(templates.after),
              features.attackDB >= parameters.templateScoreAttackDB,
              features.attackDB <= parameters.templateRecoverAttackDB, features.tonality >= parameters.templateTonality,
              typicals.attackDB <= parameters.templateNoisyRoomDB,
              candidate.onset - run.bounces.last >= Int64(parameters.samples(parameters.templateAfterReportSeconds)),
              let cosine = templates.match(at: candidate.onset, ring: highPassed)
        else { return (.nan, false) }
        let share = rule == .thud ? parameters.templateThudAcceptShare : parameters.templateAcceptShare
        return (cosine, cosine >= max(parameters.templateFloor, share * reference))
    }

    /// The learned recovery's probability for a candidate the rules rejected, when it reaches
    /// `DetectorParameters.modelAcceptance` (nil otherwise, and where it does not run: a rule it may not overrule, a
    /// quiet room, a run under way, just after a report). `rise` is set when measured (diagnostics reuse it).
    private func modelRecovery(_ candidate: ImpactCandidate, _ features: ImpactFeatures, rule: CandidateRule,
                               fit: RunEvidence.Assessment, templateCosine: Float,
                               rise: inout WhitenedRise) -> Float? {
        guard let model, rule.recoverable, typicals.balls >= parameters.modelMinimumBalls,
              typicals.attackDB <= parameters.modelNoisyRoomDB, features.clippedShare < parameters.modelClippedShare,
              fit.runLength <= parameters.modelRunLength,
              candidate.onset - run.bounces.last >= Int64(parameters.samples(parameters.modelAfterReportSeconds))
        else { return nil }
        rise = riseMeter.measure(at: candidate.onset, written: written, raw: raw, fft: fft, window: window)
        guard let probability = model.probability(
            features, flux: candidate.flux, evidence: candidate.evidence, templateCosine: templateCosine,
            templateReference: templates?.reference(minimum: parameters.templateMinimum) ?? .nan, rise: rise),
            probability >= parameters.modelAcceptance
        else { return nil }
        return probability
    }

    /// The onset an accepted candidate is reported at: its edge moved back by the edge's lag behind the impact's
    /// first sample (`DetectorParameters.onsetLagSeconds`), from the whitened rise of its onset frame (`rise`, measured
    /// here when it was not yet), and never so far back that the report, now, comes 10 ms or more after it.
    private func reportedOnset(of candidate: ImpactCandidate, rise: inout WhitenedRise) -> Int64 {
        guard parameters.onsetLagSeconds > 0 else { return candidate.onset }
        if rise.meanDB.isNaN {
            rise = riseMeter.measure(at: candidate.onset, written: written, raw: raw, fft: fft, window: window)
        }
        let lag = OnsetRefiner.lag(riseDB: rise.meanDB, attackSeconds: parameters.onsetLagSeconds,
                                   share: parameters.onsetLagShare, sampleRate: format.sampleRate)
        return max(candidate.onset - lag, min(candidate.onset, written - Int64(parameters.samples(0.0099))))
    }

    /// Measures a candidate at its decision point, judges it by the rules with what the run and the stream's balls
    /// say of it, lets a rejected run, the templates or the learned recovery give back a rejection and applause
    /// overrule them, and reports an impact (teaching the run, the kinds and the typicals) or undoes a rejected one's
    /// hold-offs as the verdict says. False when it rejected the candidate (true when it reported it, or moved it to
    /// the clipping after it, `clipRetimed`).
    private func decide(_ candidate: ImpactCandidate, onImpact: (Impact) -> Void) -> Bool {
        let features = extractor.measure(onset: candidate.onset, raw: raw, highPassed: highPassed, fft: fft, flux: flux)
        let fit = run.assess(candidate.onset, features, rules: rules, ring: highPassed)
        let shape = typicals.shape(of: features.bandLevelsDB, bands: rules.bands, parameters: parameters)
        var (verdict, rule) = rules.decision(
            features, evidence: candidate.evidence, typicalAttackDB: typicals.attackDB,
            typicalCentroidHz: typicals.centroidHz,
            followsImpact: fit.followsImpact, earlyRunExcessDB: fit.earlyRunExcessDB, likeness: fit.likeness,
            likeStream: shape.like, unlikeStream: shape.unlike,
            ringInnovationDB: fit.unpredictedDB, ringPredicted: fit.predicted, clockError: fit.clockError,
            runLength: fit.runLength, keepsPace: fit.keepsPace,
            brightestBallHz: typicals.brightestCentroidHz(minimumBalls: parameters.brightFlatMinimumBalls))
        if case .rejected = verdict, run.endsRejectedRun(candidate.onset, features) {
            verdict = .impact(kind: rules.classifier.kind(of: features), confidence: rules.classifier.acceptance)
            rule = .rejectedRun
        }
        if case .rejected = verdict, kinds.servesBounceDue(at: candidate.onset), rules.bouncesAfterServe(features, typicalAttackDB: typicals.attackDB) {
            verdict = .impact(kind: .table, confidence: rules.classifier.acceptance)
            rule = .serveBounce
        }
        var template = (cosine: Float.nan, recovered: false)
        if case .rejected = verdict {
            template = templateRecovery(candidate, features, rule: rule)
            if template.recovered {
                verdict = .impact(kind: rules.classifier.kind(of: features), confidence: rules.classifier.acceptance)
                rule = .template
            }
        }
        var rise = WhitenedRise.unmeasured
        if case .rejected = verdict, let recovered = modelRecovery(candidate, features, rule: rule, fit: fit,
                                                                   templateCosine: template.cosine, rise: &rise) {
            verdict = .impact(kind: rules.classifier.kind(of: features), confidence: recovered)
            rule = .model
        }
        // Within applause a candidate accepted on its timbre alone is a clap, but not one due in the stream's run of
        // impacts (a ball bouncing on, whatever rule passed it: a train may skip sounds, and a dropped ball's every
        // other bounce can keep a steady beat), and never one far sharper than every clap around it
        // (`ApplauseTrain.hears`).
        if applause.hears(candidate.onset, features, rule: rule, parameters: parameters), case .impact = verdict,
           rule.yieldsToApplause, !fit.followsImpact || rule.yieldsToApplauseAfterImpact {
            verdict = .rejected(restore: false, endRefractory: false)
            rule = .applause
        }
        if candidate.onlyReplacing, !fit.replacesLast {
            verdict = .rejected(restore: true, endRefractory: false)
            rule = .notReplacing
        }
        if let later = clipRetimed(candidate, features, verdict: verdict, rule: rule,
                                   innovationDB: fit.unpredictedDB) {
            commit(later)
            return true
        }
        if let observer = candidateObserver {
            var decision = run.decision(candidate.onset, levels: features.bandLevelsDB, rule: rule,
                                        followsImpact: fit.followsImpact, ring: highPassed)
            decision.templateCosine = template.cosine
            decision.templateReference = templates?.reference(minimum: parameters.templateMinimum) ?? .nan
            decision.timing = candidate.timing
            decision.typicalAttackDB = typicals.attackDB
            decision.rise = rise.medianDB.isNaN ? riseMeter.measure(at: candidate.onset, written: written, raw: raw,
                                                                    fft: fft, window: window) : rise
            observer(candidate.onset, features, candidate.flux, candidate.evidence, decision)
        }
        switch verdict {
        case .impact(let ruleKind, let confidence):
            let kind = kinds.kind(of: features.bandLevelsDB, at: candidate.onset,
                                  speedingRun: run.isSpeedingBounce(candidate.onset, followsImpact: fit.followsImpact),
                                  otherwise: ruleKind)
            kinds.report(candidate.onset, levels: features.bandLevelsDB, kind: kind)
            run.report(candidate.onset, levels: features.bandLevelsDB, excessDB: features.snrDB,
                       endsRejectedRun: rule == .rejectedRun, laterBounce: rule.continuesLaterBounce,
                       replacing: fit.replacesLast, recovered: rule == .model)
            if rule.teachesTypicals {
                typicals.learn(attackDB: features.attackDB, flux: candidate.flux, levels: features.bandLevelsDB,
                               centroidHz: features.centroidHz)
            }
            if rule.learnsTemplate, features.attackDB >= parameters.templateLearnAttackDB {
                if let templates, written >= candidate.onset + Int64(templates.after) {
                    templates.learn(at: candidate.onset, ring: highPassed)
                }
            }
            let onset = reportedOnset(of: candidate, rise: &rise)
            onImpact(Impact(frame: onset, time: Double(onset) / Double(format.sampleRate), kind: kind,
                            confidence: confidence))
        case .rejected(let restore, let endRefractory):
            holdOffs.weakReleased = candidate.isWeak
            if restore { holdOffs.restoreBeforeWeak() }
            if endRefractory { holdOffs.endRefractory(at: written) }
            return false
        }
        return true
    }
}
