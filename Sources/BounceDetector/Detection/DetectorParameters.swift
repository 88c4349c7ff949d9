/// The detector's sizes and thresholds, derived from the sample rate. Every value has a physical reason.
public struct DetectorParameters: Sendable, Equatable {
    /// Input rate.
    public let sampleRate: Int
    /// FFT length: the power of two nearest 5.3 ms, long enough to resolve the ball's 1–8 kHz shell modes
    /// (≈ 190 Hz bins at 48 kHz) and short enough to keep an impact's attack in one frame.
    public let fftSize: Int
    /// Hop: a quarter frame (1.33 ms at 48 kHz), so a trigger is at most a hop late.
    public let hop: Int
    /// First and last FFT bins of the onset band, 700 Hz – 10 kHz: ball and racket modes live there,
    /// footsteps, kick drums and most voice energy below it.
    public let bandBins: ClosedRange<Int>
    /// FFT bins of the racket band, 1–4 kHz: a racket hit's rubber-damped modes sit there, where speech babble
    /// also lives. Its own flux, with its own running statistics, is a second trigger (see `ImpactDetector`).
    public let racketBins: ClosedRange<Int>
    /// Bins from 400 Hz up, used by the classifier (it needs the racket's low thud).
    public let classifierBins: ClosedRange<Int>

    /// Hops back to the flux's reference frame: a whole frame, so reference and current share no samples.
    public var fluxLag = 4
    /// Log-power margin (nats) above a bin's background before a rise counts: 1.4 nats ≈ 6 dB over the mean log
    /// power, which a noise bin exceeds in about 3 % of frames; the classifier sorts out what else gets through.
    public var gateNats: Float = 1.4
    /// Smallest flux (summed nats) that can trigger: about ten bins rising 10 dB over their floor at once.
    public var minimumFlux: Float = 22
    /// Whether the racket-band flux may trigger on its own (see `ImpactDetector`).
    public var racketTrigger = true
    /// Racket-band trigger floor, as a multiple of `minimumFlux` scaled by the band's share of bins: twice the
    /// per-bin rise the whole band needs (about a third of the racket band's bins rising 10 dB at once).
    public var racketMinimumScale: Float = 2
    /// Resonance probability a weak candidate (only the racket band or the band rise saw it) must reach.
    public var racketAcceptance: Float = 0.8
    /// Bands (of seven, 700 Hz – 10 kHz) that must rise by `racketRiseDB` together in a weak candidate's
    /// first 1.5 ms (see `OnsetBands`); 0 = not checked. Three: a racket's rubber-damped modes spread over 1–4 kHz
    /// (three to four bands), a voice's or a note's first partials do not.
    public var racketBands = 3
    /// Bit flags (default 2 + 4; see docs/DETECTOR.md): 1 = a weak candidate that the whole band also sees before its
    /// decision counts as a whole-band one; 2 = one that the broadband check rejects leaves the hold-offs (refractory,
    /// frozen background) as they were before it (a band-rise candidate does whenever it is rejected); 4 = a
    /// whole-band trigger supersedes a waiting weak candidate, and is not held off by a rejected one's refractory.
    public var racketUpgrade = 6
    /// Attack measured in the onset's own bands (`OnsetBands`), not over the whole high-passed band.
    public var bandAttack = true
    /// The stream's typical attack starts as a plain mean of its first balls (else a running mean over ten from the
    /// quiet-room prior): the gate learns a loud room in a few balls, not twenty.
    public var warmStart = true
    /// The typical attack (dB) a stream starts from (`StreamTypicals.attackDB`): a quiet room's, so the attack gate
    /// starts at `ImpactClassifier.minimumAttackDB`.
    public var typicalStartAttackDB: Float = 24
    /// How many balls `typicalStartAttackDB` counts as in the plain mean of the first balls (`warmStart`). 0: the first
    /// reported ball replaces it (at 0 dB the gate fell from 10 to 8 dB only after five or six balls, and the first
    /// ten seconds of a loud room lost 37 % of their balls against 16 % later on).
    public var typicalPriorWeight: Float = 0
    /// Whether the typical flux (the trigger floor's reference, `fluxShareOfTypical`) learns from the first balls
    /// with the typical attack's weights instead of a tenth a ball. From 100 at a tenth a ball, the floor stayed at
    /// `minimumFlux` (22) for the first ~16 balls of a loud room, whose balls trigger at 15–19: the triggers missed
    /// them for its first 20 s, the floor falls to `lowestFlux` (16) once the typical flux is under 32.
    public var typicalFluxWarmStart = true
    /// The typical flux a stream starts from: 44, where the floor is still `minimumFlux` (was 100, a quiet room's).
    public var typicalStartFlux: Float = 44
    /// Balls a stream must have reported before a candidate shaped like them is a ball on that likeness
    /// (`streamLikeShapeDB`): one (three until the eighth session; the likeness still asks the attack the stream's
    /// balls have, `streamLikeBelowTypicalDB`).
    public var streamLikeMinimumBalls = 1
    /// A candidate rejected for its attack (not an abrupt onset) ends the refractory at its decision.
    public var releaseAfterNonImpact = true
    /// The attack compares an onset's first 2.5 ms with the room from this long before it to 3 ms before it
    /// (`OnsetBands`). A narrow band's level over a few ms is a noisy estimate (a 300 Hz band holds about four
    /// degrees of freedom in 7 ms), and that noise lets a babble rise look abrupt; 12 ms narrows its spread in dB by
    /// a quarter, while a longer window reaches back into the decay of whatever sounded before (10…3 ms before: 0.865 at
    /// 0 dB on the tuning files; 15…3 ms: 0.880; 28…3 ms: 0.853).
    public var attackReferenceSeconds: Double = 0.015
    /// See `racketBands`.
    public var racketRiseDB: Float = 6
    /// A candidate within this long after a reported impact may continue its run (`CandidateRules.continuesRun`);
    /// 0 = off.
    public var runSeconds: Double = 0.25
    /// A candidate louder than a run's last impact by more than this (dB, mean band-level difference; 0 = off) is
    /// none of its bounces: a ball bouncing on keeps only part of its speed each time, while a clap's echo and the
    /// next clap, 90 and 180 ms apart, kept a run of claps going.
    public var runLouderBreaksDB: Float = 6
    /// In a run that keeps its clock (`BounceRun.clockHeld`), a candidate breaks it only when louder by
    /// `runLouderBreaksDB` than the report before the last too (sixteenth session): a bounce timed on the ring's
    /// stirring 1.9 ms early, measured 12 dB under its neighbours, made the drop's next bounce "far louder" and cut
    /// the run (tune8 seed 98 at 20 dB, six bounces).
    public var runLouderBreaksOverTwo = true
    /// A report louder than a lone impact the learned recovery gave back by more than this (dB, mean band-level
    /// difference; 0 = off) starts a run of its own instead of making a run of two with it (`RunEvidence.report`):
    /// a faint sound recovered 40 ms before a dropped ball's first bounce gave its run a 40 ms first gap, and the
    /// drop's next bounces fell off that clock (tune4 seed 51 at 22 s).
    public var runLouderRestartsDB: Float = 10
    /// A run of one or two impacts is no bouncing ball yet (a rally's hit and its bounce; a sound 100–250 ms after a
    /// ball): the run rule (`CandidateRules.continuesRun`) takes no candidate after it with less than this much energy
    /// over the room in its onset frame (dB, `ImpactFeatures.snrDB`; 0 = off) and more than `runEarlyQuieterDB` less
    /// than the run's last impact had. A dropped ball's next bounce keeps most of the last one's excess (−6…−1 dB);
    /// the sounds after a rally's ball that the rule took at 0–10 dB had 10–22 dB less (median).
    public var runEarlyExcessDB: Float = 15
    /// See `runEarlyExcessDB` (dB).
    public var runEarlyQuieterDB: Float = 8
    /// Least attack (dB) of a candidate the run rule takes after a run of one or two impacts (`runAttackDB` for a
    /// longer run): what follows a rally's ball 100–250 ms on in a loud room rises 7–8 dB, its next ball 9–17.
    public var runEarlyAttackDB: Float = 10
    /// A candidate the resonance score alone accepts with less attack than this (dB; 0 = off), rising in at most
    /// `faintBrightBands` bands, with an excess centroid `faintBrightCentroidRatio` times the stream's balls' or more
    /// (`StreamTypicals.centroidHz`), is rejected (`x-bright`): at 0 dB such candidates were 31 of the 86 false
    /// reports the resonance score made on the tuning rallies, and 7 of its 540 balls. Relative to the stream's balls,
    /// not in Hz: an absolute 2.2 kHz cost the brighter synthetic balls (gen_corpus 0 dB −0.018) and the independent
    /// ball's (recall 0.772 → 0.763).
    public var faintBrightAttackDB: Float = 12
    /// See `faintBrightAttackDB`.
    public var faintBrightBands = 4
    /// See `faintBrightAttackDB`.
    public var faintBrightCentroidRatio: Float = 1.6
    /// A run's next gap lies between `runFastest` and `runSlowest` times the last one (`BounceRun`).
    public var runSlowest: Double = 2.1
    /// See `runSlowest`.
    public var runFastest: Double = 0.6
    /// A run's clock (`BounceRun.clockTolerance`; 0 = off): its next bounce is due gap × r after the last (r: the
    /// run's last gap over the one before), within this share of that interval; a run that speeds up and loses a
    /// bounce resumes where the bounce after it is due, gap × (r + r²) on.
    public var runClockTolerance: Double = 0.08
    /// A run whose clock puts the bounce after a lost one further than `runSeconds` still resumes there
    /// (`BounceRun.resumesPastLongestGap`): a dropped ball's early gaps are 150–250 ms, so the gap over a lost bounce
    /// is up to 450 ms, and without it the whole drop after its first lost bounce was lost (tune8's restitution
    /// variant, seed 92 at 20 dB: eleven bounces).
    public var runResumesPastRunSeconds = true
    /// The clock's ratio and next gap fitted over the run's last this many gaps (`BounceRun.clockGaps`, 2…4): four
    /// (two, the last gap over the one before, until the ninth session). A late bounce's onset is timed to a
    /// millisecond, which is 2–5 % of its gap, and a ratio from two gaps doubled that: the clock put a ball's 41 ms
    /// bounce 14 % off where four gaps put it 5 % off (swapped drops clean 0.971 → 0.979, 20 dB 0.943 → 0.964).
    public var runClockGaps = 4
    /// A run that has shown its clock (`BounceRun.clockHeld`) and speeds up keeps it: a candidate further than this
    /// share of the interval from both of the clock's predictions (`BounceRun.clockError`) is no bounce of the run
    /// (no run rule takes it; the rules for any candidate still may). 0 = off.
    public var runOffClock: Double = 0.2
    /// A run may start from one reported impact: a candidate this soon after it may be its second bounce (s; 0 = a
    /// run starts only once two impacts came `runSeconds` apart).
    public var runFirstSeconds: Double = 0.2
    /// …but no sooner than this (s): what follows an impact within a few tens of milliseconds is its own rattle or
    /// a reflection (csmash-data's racket hit rings again 22 ms on), not the ball's next bounce.
    public var runFirstShortestSeconds: Double = 0.08
    /// Where a run's next bounce is due, the band rise triggers from this many dB (0 = `bandRiseTriggerDB` there too):
    /// the tenth bounce of a dropped ball rises from the ring of the ninth, 35–45 ms old.
    public var runTriggerDB: Float = 4
    /// Where a run's next bounce is due and the trigger's edge was judged against the ring (its onset level set by
    /// the noise, not the peak), the onset is where the ring's linear prediction fails (`RingPredictor`): the first
    /// window of `runOnsetSeconds` whose prediction-error RMS is this multiple of the fit's (0 = off)…
    public var runOnsetFactor: Float = 4
    /// …over this window…
    public var runOnsetSeconds: Double = 0.0005
    /// …searching from this far before the trigger's search region (the predictor is fitted on what precedes it)…
    public var runOnsetReachSeconds: Double = 0.003
    /// …on this much ring.
    public var runOnsetFitSeconds: Double = 0.01
    /// Where the window rule finds nothing, the prediction error's change point (`RingPredictor.changePoint`: Page's
    /// CUSUM of each sample's error power over the fit's, at most `runOnsetCap`, less `runOnsetDrift`) once that sum
    /// reaches this (0 = off): a bounce 25–30 dB under the first lifts the error to only 2–4 × the fit's, for a
    /// millisecond or two…
    public var runOnsetAlarm: Float = 40
    /// …see `runOnsetAlarm` (in fit-error powers)…
    public var runOnsetDrift: Float = 2
    /// …and `runOnsetAlarm`: a sample's error power counts at most this many times the fit's (a limiter's or a
    /// codec's isolated error spike is not a strike).
    public var runOnsetCap: Float = 10
    /// Where a run's next bounce is due and nothing else triggered (or its trigger found no edge over the ring), the
    /// same change point triggers once its sum reaches this (0 = off), searched over the last hop and
    /// `runErrorReachSeconds` before it, the predictor fitted on `runOnsetFitSeconds` before that…
    public var runErrorAlarm: Float = 40
    /// …see `runErrorAlarm`.
    public var runErrorReachSeconds: Double = 0.002
    /// The prediction error's change point (`runOnsetAlarm`, `runErrorAlarm`) is asked only in a run of at least
    /// this many reported impacts…
    public var ringErrorRunLength = 3
    /// …that speeds up as a bouncing ball's does (`BounceRun.speedsUp` at this pace; 0 = not asked): a rally's
    /// racket hit and bounce, or steps, do not. 1: no gap longer than the last (`runLikePace`).
    public var ringErrorPace: Double = 1
    /// In a run with a clock (`BounceRun.clockError`), the prediction error triggers a candidate only within this
    /// share of the clock (0 = anywhere the run continues; sixteenth session): the ring's stirring 5–12 ms ahead of a
    /// late bounce (15–27 % of its gap) triggered on its error, and the candidate it started, rejected, held off the
    /// bounce itself (six splits' drops clean 48 → 44 missed; 0.1–0.15 the same).
    public var ringErrorTriggerClock: Double = 0.12
    /// A run's next bounce sounds like the last (`BounceRun.resembles`): its band levels' spread about their mean
    /// difference from the last impact's at most this (dB; 0 = not asked)…
    public var runShapeDB: Float = 4
    /// …and that mean difference at most this (dB): no louder than the last bounce.
    public var runLouderDB: Float = 3
    /// In a run already under way (two reported bounces at its pace), a candidate that sounds like the last bounce
    /// struck again — its band levels (`BounceRun.resembles`) spread by at most this (dB) about their mean difference
    /// from it, no louder than `runLouderDB` — is the next bounce on less timbre evidence (`runLikeAttackDB`,
    /// `runLikeBands`, no tonality asked): the same ball on the same table is its own template. 0 = off.
    public var runLikeShapeDB: Float = 3
    /// In a run that speeds up and whose last bounce came on its clock (`BounceRun.clockHeld`), a candidate that
    /// comes on the clock too (`BounceRun.onTime`, `runClockTolerance`) and sounds like the last bounce (band shape
    /// within `runOnTimeShapeDB`, no louder than `runLouderDB`) is the next bounce on an attack of
    /// `runOnTimeAttackDB`, whatever bands rose by 6 dB in its first 1.5 ms, not growing by more than
    /// `runOnTimeDecayDB`: its timing is the evidence that the late bounces' ring-filled timbre cannot give.
    public var runOnTime = true
    /// See `runOnTime` (dB).
    public var runOnTimeShapeDB: Float = 5
    /// A due candidate this much quieter (dB, its band levels' mean difference from the last bounce's; 0 = off) and
    /// `runStirClockError` or more off the run's clock is not on time: the last bounce's ring stirring before the next
    /// bounce (`RunEvidence.stirsEarly`), which the on-time rule took and whose refractory lost the bounce. On the
    /// tuning drops the on-time rule's true bounces lie within 5 % of the clock for 99 % and −4.6 dB of the last for
    /// 95 %; its false reports median 4.3 % off, −3.2 dB. Chosen at 7 dB / 4 % (6 dB lost two freesound bounces).
    public var runStirQuieterDB: Float = 7
    /// See `runStirQuieterDB` (share of the due gap).
    public var runStirClockError: Double = 0.04
    /// A report a run rule took as a later bounce (`CandidateRule.continuesLaterBounce`) more than `runReplaceClock`
    /// off the run's clock may have been the last bounce's ring stirring a few milliseconds before the bounce: a
    /// candidate up to this long after it (s; 0 = off) that lies within `runReplaceClock` of the clock the run had
    /// before that report is judged against that run, and, reported, takes the stirring's place in it. Taken for
    /// the bounce, the stirring had put the bounce itself off the clock (not due, and judged as any sound), and the
    /// clock it left put the next stirrings on time.
    public var runReplaceSeconds: Double = 0.025
    /// See `runReplaceSeconds` (share of the due gap).
    public var runReplaceClock: Double = 0.02
    /// See `runReplaceSeconds`: a candidate further off that clock still replaces the report when it lies within this
    /// share (0 = off) of the report's own error, and within `runReplaceClockMost`: a ball whose gaps climb as it
    /// slows (a real ball's restitution) leaves its bounce 2–3 % off a clock fitted on one ratio, nearer to it than
    /// the stirring taken 4–10 % off.
    public var runReplaceCloser: Double = 0.6
    /// See `runReplaceCloser` (share of the due gap).
    public var runReplaceClockMost: Double = 0.05
    /// See `runReplaceSeconds`: a trigger in that report's refractory starts a candidate (a stirring the band rise
    /// took leaves no flux for a stronger onset to beat).
    public var runReplaceTriggers = true
    /// See `runOnTime` (dB).
    public var runOnTimeAttackDB: Float = 5
    /// See `runOnTime` (dB).
    public var runOnTimeDecayDB: Float = 5
    /// An on-time candidate (`runOnTime`) short of the on-time rule's evidence (fainter than `runOnTimeAttackDB`, or
    /// growing by more than `runOnTimeDecayDB`) is still the next bounce when the ring before it cannot predict its
    /// first `runInnovationSeconds`: the prediction error's power there (an order-16
    /// predictor fitted on the `runOnsetFitSeconds` ending `runInnovationLeadSeconds` before the onset,
    /// `RingPredictor.innovationDB`) at least this over the fit's (dB), on an attack of `runInnovationAttackDB`.
    /// A faint late bounce lifts its bands by only 2–5 dB over the last one's ring, as the ring's own beating does;
    /// but the ring is a sum of decaying resonances that its past predicts, and a new strike is not. 0 = off.
    public var runInnovationDB: Float = 3
    /// An on-time candidate (`runOnTime`) whose first milliseconds the ring before it predicted (its
    /// `runInnovationDB` measure under this, dB) is the ring's stirring, not a strike: no on-time rule takes it. The
    /// on-time bounces the tuning splits' rules took had 2.7 dB and more. 0 = off.
    public var runOnTimePredictedDB: Float = 0
    /// An on-time candidate (`runOnTime`) within this share of the due gap from the run's clock
    /// (`BounceRun.clockError`) is still the next bounce on less than the on-time or unpredicted rules ask: an attack
    /// of `runOnClockAttackDB` and a ring innovation (`runInnovationDB`'s measure) of `runOnClockInnovationDB`. A ball
    /// keeps its clock to a millisecond or two; the ring's stirrings and the room's sounds fall anywhere. On the tuning
    /// drops' rejected due candidates within 2 % of the clock, attack ≥ 3.5 dB and innovation ≥ 1.5 dB, 52 were
    /// bounces no rule took and 14 were not (wider let in more of the room and the ring: 3 % held 68 and 24, 5 % 77
    /// and 46). 3 % since the fifteenth session: a real ball's restitution jitters (the restitution variants), and on
    /// fifteen tuning splits' drops clean / 20 / 15 / 10 dB 3 % (with `runOnClockUnlikeError`) found 2 / 2 / 8 / 32 more
    /// bounces for 1 / 5 / 4 / 14 more false reports. 0 = off.
    public var runOnClockError: Double = 0.03
    /// See `runOnClockError` (dB).
    public var runOnClockAttackDB: Float = 3.5
    /// See `runOnClockError` (dB).
    public var runOnClockInnovationDB: Float = 1.5
    /// A loosely shaped bounce (`RunLikeness.looseLater`: its shape 5–6 dB from the last bounce's, past what the
    /// on-time rule takes) within `runOnClockLooseError` of the clock is the next bounce on the on-time rule's attack
    /// and growth and this much ring innovation (dB), not the loose rule's `runLooseInnovationDB`. 0 = off.
    public var runOnClockLooseInnovationDB: Float = 6
    /// See `runOnClockLooseInnovationDB` (share of the due gap).
    public var runOnClockLooseError: Double = 0.01
    /// A later bounce of a run of `runOnClockUnlikeRun` or more that keeps its clock, within this share of the due gap
    /// from it (`RunLikeness.onClockUnlike`), whatever its shape (no louder than `runLouderDB`), is the next bounce on an
    /// attack of `runOnClockUnlikeAttackDB` and `runOnClockUnlikeInnovationDB` of ring innovation, not growing (0 =
    /// off). A drop's last bounces, 25–30 dB under its first and 5–10 dB over a noisy room, measure their band shape
    /// 5–6.5 dB from the last bounce's (the room's noise in their quieter bands), past what the on-time and loose
    /// rules take. On the eight tuning splits' drops (clean to 10 dB) the rejected candidates within 2 % of the clock,
    /// in runs of four or more and no louder than the last bounce, with 4 dB of attack and 3 dB of innovation, were 16
    /// bounces no rule took and no other sound (1.5 dB of innovation: 21 and 7). 3 % since the fifteenth session
    /// (`runOnClockError`).
    public var runOnClockUnlikeError: Double = 0.03
    /// See `runOnClockUnlikeError` (impacts in the run before the candidate): the bounces it is for come sixth to
    /// seventeenth; in a run of four it took a clap of clipped applause 0.1 % off a clap train's clock.
    public var runOnClockUnlikeRun = 5
    /// See `runOnClockUnlikeError` (dB).
    public var runOnClockUnlikeAttackDB: Float = 4
    /// See `runOnClockUnlikeError` (dB; `runInnovationDB`'s measure).
    public var runOnClockUnlikeInnovationDB: Float = 3
    /// See `runInnovationDB` (dB): its bands must rise over the room 15…3 ms before at all. That stretch holds the
    /// last bounce's ring, louder than the ring at the onset, so a faint bounce rises over it by 1–3 dB.
    public var runInnovationAttackDB: Float = 1
    /// See `runInnovationDB`: under this attack (dB) the innovation asked is `runInnovationFaintDB` instead: a rise
    /// of 1–3 dB over the ring is what the end of a drop's ring also shows on the clock after the last bounce.
    public var runInnovationFaintAttackDB: Float = 3
    /// See `runInnovationFaintAttackDB` (dB).
    public var runInnovationFaintDB: Float = 4
    /// See `runInnovationDB`: such a candidate may grow by at most this 6–8 ms on (dB; the on-time rule asks
    /// `runOnTimeDecayDB`; infinity = not asked). The growth is measured over the level 10…3 ms before the onset,
    /// the last bounce's ring: under a ring as loud as the bounce it measures the ring's beating, not the bounce
    /// (a −27 dB bounce of the tuning seeds read +141 dB: its loudest millisecond under that ring).
    public var runInnovationDecayDB: Float = .infinity
    /// See `runInnovationDB`: and its band levels at most this much under the last bounce's on average (dB; a ball
    /// loses 1–4 dB a bounce, while the ring's own stirrings a few ms before a bounce lie 10–20 dB under it).
    public var runInnovationQuieterDB: Float = 8
    /// A weak candidate where a run's next bounce is due that the ring before it predicted (its `runInnovationDB`
    /// measure under this, dB) is the ring's own stirring a few ms ahead of the bounce, not the bounce: at its
    /// decision point it moves once to the prediction error's change point (`runErrorAlarm`) from
    /// `runRetimeSkipSeconds` after its onset, if there is one, and waits for its decision there. 0 = off.
    public var runRetimeDB: Float = 2
    /// See `runRetimeDB`.
    public var runRetimeSkipSeconds = 0.0015
    /// A weak candidate (band rise, ring error) where a run's next bounce is due that the rules rejected moves, once,
    /// to where the ring's prediction error rises after it (`runRetimeDB`'s search, up to its decision point),
    /// whatever the ring predicted of it, and is decided there. A drop's last bounces, 35–40 ms apart, are heard
    /// first as the ring's stirring 2–5 ms before them; measured there they show no attack and are rejected, and the
    /// bounce itself, inside that candidate's wait, started none of its own. A ball keeps more of its speed the
    /// slower it strikes, so a real drop ends in many such bounces.
    public var runRetimeRejected = true
    /// See `runRetimeRejected`: where the run has a clock, the new onset lies within this share of it (a stirring
    /// 20 ms ahead moved to another stirring is no bounce).
    public var runRetimeRejectedClock: Double = 0.04
    /// A candidate in a run that has held its clock (`BounceRun.clockHeld`), ahead of that clock by more than this
    /// share of its interval, moves once to where the ring's prediction error rises after it, if that lies nearer
    /// the clock and within `runEarlyRetimeOnClock` of it, and is decided there (`RunEvidence.earlyRetimed`; 0 =
    /// off). A dropped ball's last bounces, 35–45 ms apart near the floor, are heard first as the ring's stirring
    /// 2–4 ms ahead of them, which the ring before did not predict either (so `runRetimeDB` does not move it): taken
    /// there, 4–9 % ahead of the clock, the report missed the bounce and its wait held the bounce off. 0.04 since
    /// the eighteenth session (0 before): nineteen tuning split-sources' drops clean / 20 / 15 / 10 dB 60 / 182 /
    /// 566 / 1 429 → 53 / 171 / 554 / 1 401 missed, false reports 200 / 241 / 304 / 403 → 190 / 240 / 302 / 387;
    /// rallies, gen_corpus and both applause sets unchanged. 0.03 lost 8 more clean, 0.02 41 more (it moves bounces
    /// themselves, a little ahead).
    public var runEarlyRetimeClock: Double = 0.04
    /// See `runEarlyRetimeClock` (share of the clock's interval): without it a clap train in a quiet room whose
    /// rhythm held a clock (real applause, gambas at −26 dBFS) took a clap moved to 6 % off the clock as its next
    /// beat and reported seven more; 0.06 sits at that clap's edge.
    public var runEarlyRetimeOnClock: Double = 0.05
    /// See `runRetimeDB`: bit 1, whole-band candidates too; bit 2, wherever a run's next bounce is due (not only in
    /// a run that speeds up); bit 4, whole-band candidates the rules rejected too (`runRetimeRejected`), in a run
    /// that has held its clock (`BounceRun.clockHeld`). 1 since the sixteenth session (0 before): a whole-band
    /// trigger on the ring's stirring 2–7 ms ahead of a late bounce, which the ring predicted, was decided there and
    /// held the bounce off (six splits' drops clean 44 → 38 missed). 5 since the seventeenth: such a stirring the
    /// ring did not predict, rejected (as a thud, faint), held the bounce off as well (thirteen split-sources' drops
    /// clean 41 → 35, two more false reports; without the held clock, quiet applause +8 false reports).
    public var runRetimeScope = 5
    /// See `runInnovationDB`.
    public var runInnovationSeconds = 0.0015
    /// See `runInnovationDB`.
    public var runInnovationLeadSeconds = 0.002
    /// See `runLikeShapeDB`: the least attack (dB) of a bounce that matches the run's last…
    public var runLikeAttackDB: Float = 5
    /// …and the bands (of seven) that must rise together in it.
    public var runLikeBands = 2
    /// …and only while the run speeds up (`BounceRun.speedsUp`: three impacts or more, each gap at most this times
    /// the one before; 0 = not asked). A racket hit and the table bounce 150–250 ms after it are two impacts of a
    /// rally, and claps or steps in a steady rhythm resemble each other: neither is a ball bouncing ever faster.
    /// 1: no gap longer than the last. A ball keeps more of its speed the slower it strikes, so a drop's last gaps
    /// shrink by only 3–5 % each, and an onset timed 0.3 ms off moves a 36 ms gap's ratio by 1 %; at 0.98 (until the
    /// thirteenth session) such a drop's last bounces were no longer "speeding up" and every later-bounce rule lost them.
    public var runLikePace: Double = 1
    /// A lone impact's template: a candidate up to this long after it (s; 0 = off), at least `runFirstShortestSeconds`,
    /// whose band levels spread by at most `runLikeFirstShapeDB` about their mean difference from it, that mean
    /// between −`runLikeFirstQuieterDB` and +`runLouderDB`, is its second bounce on an attack of `runLikeFirstAttackDB`
    /// in `runLikeBands` bands (no tonality asked). A dropped ball's second bounce, 150–250 ms after the first, rises
    /// from the first's ring (attack 10–20 dB in 2–4 bands where a lone ball clears a quiet room by 30–60) and its
    /// lines are the first's, ringing on.
    public var runLikeFirstSeconds: Double = 0.25
    /// See `runLikeFirstSeconds` (dB): tighter than a run under way's, since nothing else yet says it is a ball.
    public var runLikeFirstShapeDB: Float = 2.5
    /// See `runLikeFirstSeconds` (dB): a second bounce keeps most of the first's level; an echo or a step does not.
    public var runLikeFirstQuieterDB: Float = 4
    /// See `runLikeFirstSeconds` (dB).
    public var runLikeFirstAttackDB: Float = 10
    /// A run's second or third bounce the ring before it could not predict: a candidate shaped like the last impact
    /// as `runLikeFirstSeconds` (second) or `runLikeThirdShapeDB` (third) asks, short of `runLikeFirstAttackDB`,
    /// whose first milliseconds exceed what the ring before them predicts by this much (dB,
    /// `RingPredictor.innovationDB`; 0 = off), on an attack of `runStartInnovationAttackDB` in one band or more, not
    /// growing. A ball whose bounce rings long (a racket's rubber, a live table) strikes again inside its last
    /// bounce's ring, which takes most of the attack (5–10 dB) but none of the innovation (14–20 dB; the ring's own
    /// stirring and the room's sounds 150–250 ms after a ball that resemble it, 2–5).
    public var runStartInnovationDB: Float = 8
    /// See `runStartInnovationDB` (dB).
    public var runStartInnovationAttackDB: Float = 5
    /// See `runStartInnovationDB` (s): a second bounce taken on its innovation comes at least this long after the
    /// first (a ball dropped from 2 cm or more), where `runFirstShortestSeconds` bounds the one taken on its attack. A
    /// racket hit's rattle in a loud room rose 90 ms after it, unpredicted and shaped like it.
    public var runStartInnovationShortestSeconds: Double = 0.12
    /// A lone impact's second bounce shaped further from it than `runLikeFirstShapeDB` but within this (dB; 0 = off)
    /// is its second bounce only when the ring before it could not predict it by `runLooseInnovationDB` and its
    /// spectrum is no flatter than `runLooseFlatnessDB`, on the attack either second-bounce rule asks. A ball that
    /// rings long (a racket's rubber as the ball, a live table) strikes again inside its own ring, which bends its
    /// first 2.5 ms' band shape 2.7–4.4 dB from the first bounce's (the swapped source); the innovation (12 dB let a
    /// real clap after a clap through, 14 did not) and the flatness keep out the room's sounds after a sound the
    /// stream took for a ball.
    public var runLikeFirstLooseShapeDB: Float = 6
    /// See `runLikeFirstLooseShapeDB` (dB).
    public var runLooseInnovationDB: Float = 14
    /// The same for a run of two's third bounce (`runLikeThirdShapeDB`): shaped further from the second's than that
    /// but within this (dB; 0 = off), the same innovation and flatness asked.
    public var runLikeThirdLooseShapeDB: Float = 6
    /// The same for a later bounce of a run of three or more that speeds up, where its next bounce is due: shaped
    /// further from the last bounce's than the run's own likeness asks (`runLikeShapeDB`) but within this (dB; 0 =
    /// off), the same innovation and flatness asked.
    public var runLooseLaterShapeDB: Float = 6
    /// See `runLikeFirstLooseShapeDB`: its onset frame's spectral flatness at most this (dB, `ImpactFeatures.flatnessDB`;
    /// 0 = not asked). A struck ball rings at resonances with valleys between them; a clap after a clap the stream
    /// took for a ball fills its spectrum like noise.
    public var runLooseFlatnessDB: Float = -8
    /// A run of two's template: a candidate where the third bounce is due — after two reported impacts
    /// `runSeconds` apart, at most `runLikePace` times their gap after the second — whose band levels spread by at
    /// most this (dB; 0 = off) about their mean difference from the second's, that mean within −`runLikeFirstQuieterDB`
    /// and +`runLouderDB`, is the third bounce on the second bounce's evidence (`runLikeFirstAttackDB` in
    /// `runLikeBands` bands, no tonality asked). A dropped ball's third bounce, 150–180 ms after its second, rises from
    /// the ring of both (tonality 0.66–0.71); the run cannot speed up yet (one gap), so neither the run's template
    /// nor its clock is asked. 3 dB, not 2.5: a ringing ball's third bounce (swapped seed 11's first drop) lay 2.6 dB
    /// off its second, and losing it lost the drop's next two; 3.5 let a rally's sound after a hit through (tune2).
    public var runLikeThirdShapeDB: Float = 3
    /// A bouncing ball nobody heard: `rejectedRunLength` rejected candidates in a row (up to `runSeconds` apart),
    /// each rising abruptly by `rejectedRunAttackDB` in `rejectedRunBands` bands and not growing, each shaped like the
    /// one before (band levels' spread about their mean difference within this many dB; 0 = off) and no louder than
    /// it by more than `runLouderDB`, whose gaps shrink by a ratio of 0.70–0.95 that holds to `runClockTolerance`
    /// from gap to gap, are a ball bouncing on whatever its timbre: the last of them is reported and starts a run
    /// on the clock (`BounceRun.seed`). The earlier ones are gone: the latency limit forbids reporting them late.
    public var rejectedRunShapeDB: Float = 4
    /// See `rejectedRunShapeDB` (dB).
    public var rejectedRunAttackDB: Float = 5
    /// See `rejectedRunShapeDB`: rejected candidates in the pattern (3 or 4: two gaps, or three whose ratio holds).
    public var rejectedRunLength = 4
    /// See `rejectedRunShapeDB`: the bands (of seven) that must rise abruptly in each of them. One: a drop nobody
    /// heard is faint or odd, and its second bounce, inside the first's ring, rose in one band only (tune2's seed 20).
    public var rejectedRunBands = 1
    /// The stream's own balls as waveform templates (`BallTemplates`; 0 = off): this many of its latest reports
    /// accepted on timbre with `templateLearnAttackDB` of attack, whitened, matched at five rates (0.96–1.04). A rejected
    /// candidate whose best cosine with them reaches `templateAcceptShare` × the stream's reference (the median of
    /// the templates' own scores) and `templateFloor` is a ball, once `templateMinimum` templates have a score, and
    /// only in a stream whose balls clear the room by at most `templateNoisyRoomDB`. (A veto of timbre-accepted
    /// reports unlike the templates was built, measured and removed: docs/DETECTOR.md.)
    public var templateCount = 32
    /// See `templateCount` (s): the template's span before the onset, its whole length, the lag searched either side,
    /// and the stretch before the window the whitening predictor is fitted on.
    public var templateLeadSeconds = 0.001
    /// See `templateLeadSeconds`.
    public var templateLengthSeconds = 0.0065
    /// See `templateLeadSeconds`.
    public var templateLagSeconds = 0.002
    /// See `templateLeadSeconds`.
    public var templateFitSeconds = 0.04
    /// The rates a candidate's window is matched at: 1 ± this, in `templateRateSteps` steps either side.
    public var templateRateSpread = 0.04
    /// See `templateRateSpread`.
    public var templateRateSteps = 2
    /// See `templateCount` (dB).
    public var templateLearnAttackDB: Float = 12
    /// See `templateCount`: 0.75 since the fourteenth session (0.8 before: the rules added since left the balls the
    /// templates give back nearer the reference; docs/DETECTOR.md).
    public var templateAcceptShare: Float = 0.75
    /// See `templateCount`.
    public var templateFloor: Float = 0.5
    /// See `templateCount`.
    public var templateMinimum = 4
    /// See `templateCount`: only rejected candidates with at least this attack (dB) are scored (the cost)…
    public var templateScoreAttackDB: Float = 5.5
    /// …and at most this (dB): the templates recover balls the room drowned; a candidate that clears the room by
    /// more was rejected by the timbre rules for what it is (a clap in a quiet room matches a ball's template at 0.4–0.5).
    public var templateRecoverAttackDB: Float = 20
    /// The templates recover only where the stream's balls typically clear the room by at most this (dB,
    /// `StreamTypicals.attackDB`): in a quieter room the rules miss no ball the templates could give back, and what
    /// they add there is the room's.
    public var templateNoisyRoomDB: Float = 20
    /// …and at least this long after the last report (s): a ball's ring stirs like the ball itself.
    public var templateAfterReportSeconds = 0.06
    /// A recovered candidate's excess must lie in lines this much (`ImpactFeatures.tonality`): a struck ball rings; a
    /// clap or a shuffle that happens to correlate with a template is noise.
    public var templateTonality: Float = 0.5
    /// A candidate the thud rule rejected (`minimumCentroidHz`) is given back by the templates at this share of the
    /// stream's reference (0 = not scored): a ball in a loud room whose low babble pulls its centroid under 1 kHz.
    public var templateThudAcceptShare: Float = 0.95
    /// A candidate that sounds like this stream's balls (`StreamTypicals.resembles`: its band levels' shape within
    /// this many dB of the mean of the balls it reported; 0 = off) is a ball on less timbre evidence: an attack of
    /// `streamLikeAttackDB`, and no more than `streamLikeBelowTypicalDB` under the stream's typical attack, in
    /// `runLikeBands` bands, not growing. At 0 dB SNR noise fills the lines that tonality, persistence and coherence
    /// measure, but a ball that clears the room by 9 dB still shapes its first 2.5 ms as this stream's balls do (10 dB
    /// until the resonance score was asked more of candidates unlike them, `unlikeResonanceAcceptance`).
    public var streamLikeShapeDB: Float = 2.5
    /// See `streamLikeShapeDB` (dB).
    public var streamLikeAttackDB: Float = 9
    /// Once the stream has a template of its balls (three reported), a candidate whose band shape lies further than
    /// this from both of its kinds' (dB; 0 = off) is no clear impact (`ImpactClassifier.isClearImpact`): it must pass
    /// on its timbre. A clap in a quiet room clears it as abruptly as a ball, but rings in other bands.
    public var clearLikeShapeDB: Float = 5
    /// …nor a struck object (`ImpactClassifier.struckProbability`, the weak timbre test fitted for real balls whose
    /// lines the resonance score cannot read): only the resonance score may accept it.
    public var unlikeNotStruck = true
    /// See `clearLikeShapeDB`: the resonance score a candidate shaped unlike the stream's balls must reach (0 = the
    /// classifier's own acceptance).
    public var unlikeResonanceAcceptance: Float = 0.85
    /// See `clearLikeShapeDB`: a candidate shaped unlike the stream's balls keeps the rules any other candidate has
    /// when it is a very clear onset (attack at least `unlikePeakyAttackDB`) far from noise's flatness (onset frame's
    /// `ImpactFeatures.flatnessDB` at most this, dB; 0 = off) that rings down (`decayDB` at most
    /// `unlikePeakyDecayDB`). The stream's two shape templates hold two timbres; a stream with more (two balls, a
    /// second bat: `real_corpus.py --source mixed`) met its third as "unlike" and lost loud hits. What the gate keeps
    /// out stays out: a clap fills its onset like noise (−2…−4.5 dB), a shoe squeak is as peaky but sustains (decay
    /// +0.2…+3 dB), a footstep's thud rings down less (−7 dB); the hits kept are −21…−25 dB, −11…−14 dB, 42–52 dB.
    public var unlikePeakyFlatnessDB: Float = -15
    /// See `unlikePeakyFlatnessDB` (dB, `ImpactFeatures.decayDB`).
    public var unlikePeakyDecayDB: Float = -9
    /// See `unlikePeakyFlatnessDB` (dB, `ImpactFeatures.attackDB`; the clear rule's `veryClearAttackDB`).
    public var unlikePeakyAttackDB: Float = 28
    /// Least excess centroid (Hz) of a candidate that is not a run's next bounce and has energy over the room to
    /// measure it (`snrDB` ≥ 0; 0 = off). A thud that only leaks over the 700 Hz high-pass (a step, a kick drum, a
    /// low note: 0.7–1.0 kHz) is no ball, whatever rings in it; balls, real and synthetic, sit at 1.4 kHz and up (the
    /// clear rule asks 1.2 kHz, `ImpactClassifier.clearCentroidHz`).
    public var minimumCentroidHz: Float = 1000
    /// The least excess centroid (Hz) of a faint candidate (attack under `faintCentroidAttackDB` and energy over the
    /// room under `faintCentroidSNRDB`), instead of `minimumCentroidHz` (0 = the same): a ball that barely clears the
    /// room still rings where balls ring, but a syllable's or a note's rise out of babble sits under it. (By attack
    /// alone it also took a dropped ball's bounce rising 9 dB from the last one's ring, 55 dB over a quiet room.)
    /// Chosen on tuning: at 0 dB, of the reports under 1.2 kHz with < 10 dB of attack 31 were the room's and 3
    /// balls; 1.3 kHz lost balls.
    public var faintCentroidHz: Float = 1200
    /// See `faintCentroidHz` (dB).
    public var faintCentroidAttackDB: Float = 10
    /// See `faintCentroidHz` (dB, `ImpactFeatures.snrDB`).
    public var faintCentroidSNRDB: Float = 20

    /// The least excess centroid asked of a candidate with `attackDB` of attack and `snrDB` of energy over the room
    /// (`minimumCentroidHz`, `faintCentroidHz`).
    func leastCentroidHz(attackDB: Float, snrDB: Float) -> Float {
        faintCentroidHz > 0 && attackDB < faintCentroidAttackDB && snrDB < faintCentroidSNRDB
            ? max(minimumCentroidHz, faintCentroidHz) : minimumCentroidHz
    }
    /// A candidate whose first 3 ms sit at the phone's rail for at least this share (`ImpactFeatures.clippedShare`;
    /// 0 = off), rising by `clippedAttackDB` in `clippedBands` onset bands, is an impact whatever its tonality and
    /// ring (clipping spreads the one into harmonics and holds the other), once it is no thud. A phone's AGC lifts a
    /// quiet room by up to 30 dB, and the first bounces of a ball dropped near it clip for most of their first
    /// milliseconds (real_corpus's limiter at −3 dBFS).
    public var clippedShare: Float = 0.5
    /// See `clippedShare` (dB).
    public var clippedAttackDB: Float = 6
    /// See `clippedShare`.
    public var clippedBands = 2
    /// See `clippedShare`: the 3 ms before the onset's last millisecond clipped at most 1/this as often
    /// (`ImpactFeatures.clippedBeforeShare`; a stretch already clipped says nothing new). 8 since the sixteenth
    /// session (20 before): a clipped ball 150–250 ms after the last (a rally's bounce, a drop's second) whose
    /// 3 ms before still touched the rail now and then with the last one's ring was lost (thirteen tuning
    /// split-sources' drops clean / 20 dB 48 / 125 → 46 / 122 missed, tune6 rally clean 12 → 8 missed, clipped
    /// applause 301 → 305 reports; at 4: 43 / 122 and 5, but clipped applause 322).
    public var clippedBeforeRatio: Float = 8
    /// See `clippedBeforeRatio`: an onset that still rings 6–8 ms on within `clippedRingingDecayDB` of its loudest
    /// millisecond (`ImpactFeatures.decayDB`) may have clipped 1/this as often before (0 = off). A loud drop's
    /// ball clips, and its ring holds the rail for 200 ms: its second and third bounces find the 3 ms before them
    /// at the rail a sixth to a third as often as their own first 3 ms (ball decay −0.8 to −3 dB); a clap clipped
    /// as loud dies within those 6 ms (−5 to −30 dB). 4 since the eighteenth session (0 before): nineteen tuning
    /// split-sources' drops clean 67 → 60 missed, tune rallies clean 4 fewer missed and 2 fewer false, clipped
    /// applause unchanged (306; `clippedBeforeRatio` 4 alone took 322, a decay of −6 dB 315).
    public var clippedRingingRatio: Float = 4
    /// See `clippedRingingRatio` (dB).
    public var clippedRingingDecayDB: Float = -4
    /// A candidate where the run's next bounce is due (`CandidateRules`' `followsImpact`) whose first 3 ms sit at
    /// the phone's rail for at least this share, the stretch before it at most 1/`runClippedBeforeRatio` as often,
    /// is that bounce (0 = off). A quiet room lifted by the AGC keeps a dropped ball's first bounces pinned to the
    /// rail, their rings too: the next bounce rises only 3–6 dB over that ring, in one band or none.
    public var runClippedShare: Float = 0.55
    /// See `runClippedShare`.
    public var runClippedBeforeRatio: Float = 3
    /// …or at most 1/this as often, on an attack of `runClippedRisingAttackDB` (0 = off). A loud drop at a stream's
    /// start, the AGC's gain still up from the quiet before it, holds the first bounce's ring at the rail a third to
    /// a half of the time 150–250 ms on; the next bounce pins it most of the time (clipping 1.5–3 × as dense) and
    /// still rises 6–16 dB over that ring. What else rose that way in a run's ring (a retimed stirring, a rattle)
    /// rose 2–6 dB.
    public var runClippedRisingRatio: Float = 1.5
    /// See `runClippedRisingRatio` (dB; `clippedAttackDB`'s 6 dB).
    public var runClippedRisingAttackDB: Float = 6
    /// A due candidate that keeps a bouncing ball's pace (`runPaceFastest`…`runPaceSlowest` of a run of two's gap, or
    /// within `runClippedPaceClock` of a longer run's clock) is its bounce when its first 3 ms sit at the rail at least
    /// this share of the time, 1/`runClippedRisingRatio` as often before, on `runClippedPaceAttackDB` of attack,
    /// growing by at most `runClippedPaceDecayDB` (0 = off). A loud drop's third and fourth bounces, the AGC's gain
    /// still up, clip a third to a half of their first 3 ms; clipping bends their band shape away from the last
    /// bounce's (no likeness rule takes them) and their lines into harmonics (nor does the classifier), but nothing
    /// else in a room keeps that pace.
    public var runClippedPaceShare: Float = 0.3
    /// See `runClippedPaceShare` (dB).
    public var runClippedPaceAttackDB: Float = 6
    /// See `runClippedPaceShare`: growing 6–8 ms on by at most this (dB, `ImpactFeatures.decayDB`). 8 dB of attack
    /// and no growth until the sixteenth session: tune8 seed 94's clipped drop lost a bounce 1.4 % off its clock on
    /// 6.3 dB and another that grew 0.3 dB (clipping holds a loud onset's level: its first frames sit at the rail).
    public var runClippedPaceDecayDB: Float = 1
    /// See `runClippedPaceShare`: a run of three or more's clock, as a share of the predicted interval.
    public var runClippedPaceClock: Double = 0.03
    /// A run of two's next gap keeps a bouncing ball's pace between these multiples of its one gap (`runClippedPaceShare`):
    /// a regulation ball dropped from 305 mm rebounds 230–260 mm (a coefficient of restitution of 0.87–0.92, the
    /// ratio of two successive gaps), softer tables and old balls less.
    public var runPaceFastest: Double = 0.8
    /// See `runPaceFastest`.
    public var runPaceSlowest: Double = 0.95
    /// A candidate where a run's next bounce is due, whose onset's 3 ms sit at the rail less often by this share than
    /// a later 3 ms before its decision do (and those at least `runClipRetimeShare` of the time), moves to that later
    /// stretch (0 = off): in a loud room's ring pinned to the rail, its peaks touching the rail trip the trigger
    /// 2–6 ms before the bounce that drives it there for milliseconds on end.
    public var runClipRetimeRise: Float = 0.1
    /// See `runClipRetimeRise`.
    public var runClipRetimeShare: Float = 0.4
    /// See `runClipRetimeRise`: a rejected candidate moves too when the later stretch sits at the rail at least this
    /// share of the time (0 = never)…
    public var runClipRetimeRejectedShare: Float = 0.6
    /// …to the refiner's edge within this long (s) of that stretch's start (0 = to its start)…
    public var runClipRetimeRefine = 0.002
    /// …in a run of at most this many impacts.
    public var runClipRetimeRejectedRun = 2
    /// See `runClipRetimeRise`: only a candidate whose attack (dB) is under this moves; a bounce rises clearly.
    public var runClipRetimeAttackDB: Float = 8
    /// See `runClipRetimeRise`: nor one the ring before it failed to predict by this much (dB) or more: a new event.
    public var runClipRetimeInnovationDB: Float = 10
    /// See `runClipRetimeRise`: where the run has a clock (`BounceRun.clockError`), a candidate never moves further
    /// off it (seventeenth session; false = wherever the clipping grows). In a loud drop whose rings stay at the
    /// rail, the bounce itself, on the clock, clips ever more over its first milliseconds as it grows: moved 5–6 ms
    /// on to where the rail held it more often, it was decided there, rejected as faint, and the run lost its clock
    /// (tune10 seed 113: eight bounces). Fifteen tuning split-sources' drops clean 49 → 42 missed (tune10, whose
    /// drop showed it, 26 → 17); nothing else moved.
    public var runClipRetimeKeepsClock = true
    /// Most spectral flatness (`ImpactFeatures.flatnessDB`, dB) of a candidate that clears the room by
    /// `clapFlatnessAttackDB` and is not a run's next bounce (0 = off). So clear an onset leaves the room no part in
    /// its onset frame's spectrum: a struck object's resonances leave valleys there, a clap's noise fills the band.
    /// Off: chosen on tuning files at −3.8 dB, it dropped clear balls of the independent real recordings, whose first
    /// frame can be as flat as a clap's (docs/DETECTOR.md).
    public var clapFlatnessDB: Float = 0
    /// Least attack (dB) at which `clapFlatnessDB` is asked: under it the room's own noise fills the valleys.
    public var clapFlatnessAttackDB: Float = 20
    /// Most spectral flatness (`ImpactFeatures.flatnessDB`, dB) of a candidate, not a run's next bounce, whose excess
    /// centroid is `brightFlatCentroidRatio` times the stream's brighter balls' or more
    /// (`StreamTypicals.brightCentroidHz`, once it has reported `brightFlatMinimumBalls`; 0 = off). A stream that
    /// knows its balls knows how bright they ring: an onset far brighter, filled like noise, is a clap. In a quiet
    /// room a clap clears it by as much as a ball, and the clear-impact rule took it: on the tuning rallies' clean
    /// files claps were 84 of the 94 false reports. Unlike `clapFlatnessDB` it asks nothing of a ball whose first
    /// frame is flat yet rings as bright as the stream's balls. Compared with the brighter balls, not all of them: a
    /// table may ring twice as bright as a bat (gen_corpus's do), and a serve's two kinds, taught by the order of
    /// play (`StreamKinds`), were too few at 0 dB to say how bright the table rings. Chosen on the tuning splits at
    /// −7 dB / 1.5 (1.4 lost a tuning ball and gen_corpus's Opus 0.003).
    public var brightFlatnessDB: Float = -7
    /// See `brightFlatnessDB`.
    public var brightFlatCentroidRatio: Float = 1.5
    /// See `brightFlatnessDB`: the least attack (dB) at which it is asked: a clap 10 dB over a quiet room is one, and
    /// the room gate (`brightFlatQuietRoomDB`) keeps it from a loud room's faint balls, whose valleys its noise fills
    /// (without that gate, 10 dB cost the tuning 0 dB rallies through Opus 4 balls, 12 dB 2 balls at 0 dB).
    public var brightFlatAttackDB: Float = 10
    /// See `brightFlatnessDB`: balls the stream must have reported before it is asked.
    public var brightFlatMinimumBalls = 3
    /// See `brightFlatnessDB`: asked only in a room the stream's balls clear by this much (dB, `StreamTypicals.attackDB`;
    /// 0 dB rallies' balls clear theirs by ≈ 15, 20 dB ones' by ≈ 30). At 0 dB it had removed no false report on the
    /// tuning files, and on the independent split (looked at once, before this gate) it cost 0 dB balls.
    public var brightFlatQuietRoomDB: Float = 25
    /// Applause (`ApplauseTrain`): four impulsive candidates (attack ≥ `applauseAttackDB`) whose three gaps lie in
    /// `applausePeriodSeconds` within this share of each other (0 = off), not shrinking by `applauseSpeedUp` each as
    /// a bouncing ball's do, are one person clapping; for `applauseAlivePeriods` of its period after the train's last
    /// clap, every candidate accepted on its timbre alone is a clap. A candidate due in the stream's run of impacts
    /// (`BounceRun.continues`) is never vetoed, whatever rule accepted it.
    public var applauseTolerance: Double = 0.25
    /// See `applauseTolerance` (s): 3.5–6 claps a second, ±10 %.
    public var applausePeriodSeconds: ClosedRange<Double> = 0.14...0.33
    /// See `applauseTolerance` (dB).
    public var applauseAttackDB: Float = 10
    /// See `applauseTolerance`.
    public var applauseSpeedUp: Double = 0.95
    /// A train that speeds up is a ball bouncing on only while no sound of it is this much louder (dB, the loudest
    /// onset band's level; 0 = off) than the one before (`ApplauseTrain.speedUpLouderDB`): a bouncing ball fades. On
    /// the real applause scenes 974 → 748 reports, every ball kept; a tuning drop's bounce measures over 3 dB louder
    /// than the one before in 3.5 % of pairs clean (ring, clipping), none of them lost (docs/DETECTOR.md).
    public var applauseSpeedUpLouderDB: Float = 3
    /// See `applauseTolerance`.
    public var applauseAlivePeriods: Double = 1.5
    /// Within applause, a candidate whose attack clears the sharpest of the last eight impulsive sounds by this much
    /// (dB; 0 = off) is no clap: a ball struck by the phone while a crowd claps further off.
    public var applauseClearerDB: Float = 20
    /// Sounds a clapping train may skip between two of its claps (`ApplauseTrain.skips`): two, for three people
    /// clapping.
    public var applauseSkips = 2
    /// Applause by its density (`ApplauseTrain.densityCount`): this many impulsive candidates within
    /// `applauseDensitySeconds`, at least `applauseDensityGrowths` of whose gaps grow past the one before (no ball
    /// bouncing on), start applause as a train does (0 = off). Seven within 1 s, counting only sounds within
    /// `applauseDensityLevelDB` 20 dB of the newest one's attack: on real applause (four Debian recordings, alone and
    /// between real strokes) reports 1487 → 1227 of 2074 with all 512 balls kept, and no ball lost on any tuning
    /// corpus (six in 1 s lost one; docs/DETECTOR.md "Applause is a rhythm").
    public var applauseDensityCount = 7
    /// See `applauseDensityCount` (s).
    public var applauseDensitySeconds: Double = 1.0
    /// See `applauseDensityCount`.
    public var applauseDensityGrowths = 2
    /// Most distance (dB) of a counted sound's attack from the newest one's (0 = any): a crowd's claps sound alike.
    public var applauseDensityLevelDB: Float = 20
    /// Templates of the stream's balls (`StreamTypicals.templates`: 1, or more for each timbre's, `streamTimbres`).
    public var streamTemplates = 1
    /// Timbres of the stream's balls kept apart (`StreamTypicals`' shape templates, 1…4): the unlike gate
    /// (`clearLikeShapeDB`) asks whether a candidate is shaped like any of them.
    public var streamTimbres = 2
    /// Silence (s) after which an impact is a serve: the order of play and the templates its serves teach name the
    /// kind (`StreamKinds`; 0 = off: the classifier's centroid rule names it).
    public var kindPauseSeconds: Double = 1.5
    /// How soon (s) after the serve its first bounce falls (`StreamKinds`).
    public var kindServeBounceSeconds: ClosedRange<Double> = 0.08...0.26
    /// How much nearer (dB RMS over the onset bands) one kind's template must be than the other's to name an
    /// impact (`StreamKinds`); else the order of play does.
    public var kindMarginDB: Float = 1
    /// Impacts each kind's template averages over (`StreamKinds`).
    public var kindMemory = 8
    /// Templates each kind keeps, one per timbre it shows (`StreamKinds`, `ShapeTemplates`; 1…4).
    public var kindTemplates = 3
    /// How much farther (dB over the square root of the balls it was taught) a kind's template counts as lying when
    /// an impact is compared with it (`ShapeTemplates.nearest`).
    public var kindUncertaintyDB: Float = 1
    /// An impact farther than this (dB, uncertainty included) from every template of both kinds is a timbre the stream
    /// has not shown yet, and the order of play names it (`StreamKinds`; 0 = the nearest template names any impact).
    public var kindShownDB: Float = 3
    /// Whether a confirmed serve's return (the impact after its far bounce: the other player's bat) teaches the
    /// racket too (`StreamKinds`).
    public var kindReturnTeaches = true
    /// Whether the two impacts after one that follows `kindPauseSeconds` of silence, the first of them at a serve
    /// bounce's timing (`kindServeBounceSeconds`), are named table by that timing before any serve has taught the
    /// kinds (`StreamKinds`): the timbre rule names another table's bounces wrongly (on the freesound tuning ball,
    /// `racket`). The impact before them stays the timbre's: a lone impact is named by what it sounds like.
    public var kindServeBouncesUntaught = true
    /// A serve's first bounce: a candidate at its timing (`kindServeBounceSeconds`) after a lone impact that followed
    /// `kindPauseSeconds` of silence (`StreamKinds.servesBounceDue`) is the ball landing on the server's side when
    /// its onset clears the room by this much (dB, `attackDB`; 0 = off), rises in `serveBounceBands` bands, rings
    /// down (`serveBounceDecayDB`) and is peaky (`serveBounceFlatnessDB`): the serve's ring and echo, which it rises
    /// over, left it too little attack or too few lines for the run rule (`CandidateRules.bouncesAfterServe`).
    public var serveBounceAttackDB: Float = 9
    /// See `serveBounceAttackDB`.
    public var serveBounceBands = 3
    /// See `serveBounceAttackDB` (dB, `decayDB`).
    public var serveBounceDecayDB: Float = -2
    /// See `serveBounceAttackDB` (`tonality`: the room's noise after a false serve, 0.38; serve bounces 0.6–0.9).
    public var serveBounceTonality: Float = 0.5
    /// See `serveBounceAttackDB` (dB, `flatnessDB`: a clap's is −2…−4.5; a measured flatness only).
    public var serveBounceFlatnessDB: Float = -8
    /// See `serveBounceAttackDB`: asked only in a room the stream's balls clear by this much (dB,
    /// `StreamTypicals.attackDB`); in a loud room the noise's own rises reach that attack (at 0 dB, two in 15 files).
    public var serveBounceQuietRoomDB: Float = 20
    /// Whether the learned recovery (`CandidateModel`) may give back a candidate the rules rejected as faint, no
    /// ball, a thud or without energy (`CandidateRule.recoverable`), when its probability reaches `modelAcceptance`:
    /// in a loud room (`modelNoisyRoomDB`) that has reported `modelMinimumBalls`, on an onset that barely clips
    /// (`modelClippedShare`), outside a run (`modelRunLength`) and clear of the last report
    /// (`modelAfterReportSeconds`). It never rejects what the rules accept, and reads no timbre (docs/DETECTOR.md,
    /// "The learned recovery").
    public var candidateModel = true
    /// Probability of `CandidateModel` at which a rejected candidate is reported as a ball.
    public var modelAcceptance: Float = 0.7
    /// The recovery runs only in a stream whose balls clear the room by at most this much (dB,
    /// `StreamTypicals.attackDB`): in a quiet room the rules miss no ball it could give back, and would lose claps'
    /// rejections to it.
    public var modelNoisyRoomDB: Float = 16
    /// …once the stream has reported this many balls (until then its typical attack is its first sounds', not a
    /// room's measure: a clapping crowd's first claps, taken for balls, made a "loud room" of applause).
    public var modelMinimumBalls = 3
    /// …and only for a candidate that barely clips (`ImpactFeatures.clippedShare` under this; 1 = any): the phone's
    /// rail flattens the features the recovery reads, and the clipped-onset rule speaks for those.
    public var modelClippedShare: Float = 0.05
    /// …and only for a candidate after a run of at most this many impacts (a rally's hit and bounce): a dropped
    /// ball's later bounces are the run rules', and its ring's stirrings are what the recovery would add there.
    public var modelRunLength = 2
    /// …and at least this long after the last report (s; a ball's ring stirs like the ball itself).
    public var modelAfterReportSeconds = 0.06
    /// See `streamLikeShapeDB` (dB): a candidate far fainter than this room's balls is something else (the attack
    /// gate's own margin, `ImpactClassifier.attackBelowTypicalDB`).
    public var streamLikeBelowTypicalDB: Float = 8
    /// Bands (of seven) that must rise together in a run's next bounce.
    public var runBands = 3
    /// Bands that must rise together in a run's next bounce that holds no energy over the spectral background
    /// (`snrDB` < 0: its tonality and high share cannot be measured; 0 = such a bounce is not taken).
    public var runBandsWithoutExcess = 3
    /// Least tonality (`ImpactFeatures.tonality`) of a run's next bounce: it rings in a few lines, as the last did.
    public var runTonality: Float = 0.75
    /// A run's next bounce whose first 3 ms sit at the phone's rail for at least this share
    /// (`ImpactFeatures.clippedShare`) is not asked `runTonality` nor the classifier's high share (0 = always asked):
    /// clipping spreads a ring's lines into harmonics, so a loud dropped ball's clipped bounces measured 0.62–0.74.
    public var runClippedTonalityShare: Float = 0.5
    /// Least attack (dB) of a run's next bounce, over whatever still rings of the last.
    public var runAttackDB: Float = 7
    /// A run's next bounce must not grow 6–8 ms after its onset by more than this (dB, `ImpactFeatures.decayDB`): it
    /// rises from the last one's ring, which holds its level, and in a live room its own first reflections add to it
    /// (as for a clear impact, `ImpactClassifier.clearDecayDB`; 0 until 2026-11-26).
    public var runDecayDB: Float = 1
    /// A third trigger (`BandRise`): the mean rise of the three most rising onset bands' power over the frames
    /// before, dB; 0 = off. 8 dB, the attack gate's floor: an onset the classifier could accept.
    public var bandRiseTriggerDB: Float = 8
    /// A candidate only the band rise saw must carry this much more energy than the room in its onset frame (dB,
    /// `ImpactFeatures.snrDB`): its excess at least twice the background. A faint ball's does (3–9 dB); a babble
    /// or music rise that only redistributes the room's energy among bands does not (−5…+1 dB).
    public var bandRiseSNRDB: Float = 3
    /// …an attack of at least this (dB), and at least the stream's typical attack less
    /// `ImpactClassifier.attackBelowTypicalDB` (uncapped: in a quiet room a ball the flux missed would be implausibly
    /// faint, and what the band rise alone finds there is a hi-hat, a footstep or a note);
    public var bandRiseAttackDB: Float = 9
    /// …and 6–8 ms after its onset it must have rung down this far (dB; `ImpactFeatures.decayDB`): the clear
    /// decay of a struck shell or blade, where the whole-band rule only asks that it not grow.
    public var bandRiseDecayDB: Float = -6
    /// Multiples of the racket-band flux's running deviation above its mean that trigger (12: at 10, Opus noise
    /// filling at 0 dB passes false alarms the broadband check cannot reject): a sum over fewer bins
    /// is a heavier-tailed variable than the whole band's, so the same false-alarm rate needs more deviations.
    public var racketDeviations: Float = 12
    /// In a loud room every ball's flux is smaller (its bins rise from a higher floor), so the floor follows the
    /// stream: it may fall to this share of the flux of the stream's recent balls, but not below `lowestFlux`.
    public var fluxShareOfTypical: Float = 0.5
    /// See `fluxShareOfTypical`: about seven bins rising 10 dB at once.
    public var lowestFlux: Float = 16
    /// Multiples of the flux's running deviation above its running mean that trigger.
    public var deviations: Float = 6
    /// Time constant of the per-bin background and of the flux statistics.
    public var backgroundSeconds: Double = 0.4
    /// The first audio only teaches the background: no impact is reported from it (≈ a quarter second).
    public var warmUpSeconds: Double = 0.25
    /// After a trigger, no new trigger for this long: a dropped ball's fastest bounces are 40 ms apart.
    public var refractorySeconds: Double = 0.025
    /// Once a whole-band candidate is decided, a whole-band onset in its refractory whose flux is this many times
    /// the candidate's own is a new impact, not its ring (a ball bouncing 10 ms after a sound that was taken for
    /// one). 0 = off.
    public var strongerOnsetRatio: Float = 3
    /// Noise window before the search region used by the time-domain refinement.
    public var noiseSeconds: Double = 0.004
    /// How far the high-passed signal must clear the local noise RMS to mark the onset.
    public var onsetNoiseFactor: Float = 3
    /// …and at least this share of the event's peak amplitude (−8 dB): Opus pre-echo, ~11 dB under the edge, is skipped.
    public var onsetPeakShare: Float = 0.4
    /// The rising edge ends (walking back) after this long below the onset level: half a period at 800 Hz.
    public var onsetGapSeconds: Double = 0.0006
    /// A waiting candidate moves to a later edge whose peak exceeds its own by this factor beyond 1 / `onsetPeakShare`
    /// (1 = exactly the refiner's own rule: the earlier sound lies wholly under the later edge's onset level).
    public var reanchorMargin: Float = 1
    /// From the main edge the onset may move back this far over the impact's quieter first samples.
    public var onsetExtensionSeconds: Double = 0.0006
    /// …over samples at least this share of the edge's peak.
    public var onsetExtensionShare: Float = 0.1
    /// A reported impact's onset moves back by its edge's lag behind the impact's first sample (seventeenth session;
    /// 0 = off). The refiner and the ring's change point time an impact where it clears the background before it; an
    /// impact that clears it by a few dB only does so late in its attack. With the onset frame's background at
    /// b = 10^(−rise / 20) of its amplitude (`WhitenedRise.meanDB`), an attack that grows over about this long
    /// clears it this × (b − `onsetLagShare`) after the tenth of its peak the labels call its first sample (at most
    /// this × (1 − the share)). A dropped ball's late bounces, 2–8 dB over the last one's ring, were timed +0.8–1.0 ms
    /// late (median) and a few past the ±2 ms window; a rally's balls, 15–40 dB over the room, move 0.0–0.2 ms.
    public var onsetLagSeconds: Double = 0.001
    /// …the share of the peak the labels time an impact's first sample at (`real_corpus.py`: a tenth).
    public var onsetLagShare: Float = 0.1
    /// Decision delay after the refined onset: the onset frame plus the decay window fit in it, and the
    /// report still comes within 10 ms of the onset.
    public let decisionDelay: Int

    /// Derives sizes for `sampleRate` (≥ 8 kHz).
    public init(sampleRate: Int) {
        self.sampleRate = sampleRate
        var size = 64
        while Double(size * 2) <= Double(sampleRate) * 0.0053 * 1.5 { size *= 2 }
        fftSize = size
        hop = size / 4
        let binHz = Double(sampleRate) / Double(size)
        let top = min(10_000, 0.45 * Double(sampleRate))
        bandBins = max(1, Int((700 / binHz).rounded(.up)))...max(2, Int(top / binHz))
        let racketTop = min(4000, 0.45 * Double(sampleRate))
        racketBins = max(bandBins.lowerBound, Int((1000 / binHz).rounded(.up)))...max(bandBins.lowerBound + 1, min(bandBins.upperBound, Int(racketTop / binHz)))
        classifierBins = max(1, Int((400 / binHz).rounded(.up)))...bandBins.upperBound
        decisionDelay = Int(0.008 * Double(sampleRate))
    }

    /// Seconds to samples at this rate.
    func samples(_ seconds: Double) -> Int { Int((seconds * Double(sampleRate)).rounded()) }
}
