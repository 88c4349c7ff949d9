import BounceDetector

/// `pongd detect --tune key=value,…`: each key sets one detector or classifier parameter for an experiment or a retune
/// (`Benchmarks/Scripts/retune.py` writes these). Times are given in milliseconds, flags as 0 or 1, counts rounded.
enum DetectorTuning {
    /// What a key sets.
    enum Setter: Sendable {
        case classifier(@Sendable (inout ImpactClassifier, Double) -> Void)
        case parameters(@Sendable (inout DetectorParameters, Double) -> Void)
    }

    /// A `--tune` text that names an unknown key or is not `key=number` pairs.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    /// Largest magnitude a value may have: every parameter lies far within it (times in ms, levels in dB, Hz), and a
    /// larger one would overflow a sample count (`DetectorParameters.samples`) or size a buffer past memory.
    static let largestValue = 100_000.0

    /// Parses `key=value,…` into settings, in order; every key must be one of `keys`, every value within
    /// ±`largestValue`.
    static func parse(_ text: String) throws(Invalid) -> [(key: String, value: Double)] {
        var settings: [(key: String, value: Double)] = []
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2, let value = Double(parts[1]), value.isFinite else {
                throw Invalid(description: "--tune: '\(pair)' is not key=number")
            }
            guard abs(value) <= largestValue else {
                throw Invalid(description: "--tune: '\(pair)' is out of range (at most \(Int(largestValue)) either way)")
            }
            let key = String(parts[0])
            guard keys[key] != nil else {
                throw Invalid(description: "--tune: unknown key '\(key)' (known: \(keys.keys.sorted().joined(separator: " ")))")
            }
            settings.append((key, value))
        }
        return settings
    }

    /// Applies the classifier's settings to `classifier`.
    static func apply(_ settings: [(key: String, value: Double)], to classifier: inout ImpactClassifier) {
        for (key, value) in settings {
            if case .classifier(let set) = keys[key] { set(&classifier, value) }
        }
    }

    /// Applies the detector's settings to `parameters`.
    static func apply(_ settings: [(key: String, value: Double)], to parameters: inout DetectorParameters) {
        for (key, value) in settings {
            if case .parameters(let set) = keys[key] { set(&parameters, value) }
        }
    }

    private static func classifier(_ path: WritableKeyPath<ImpactClassifier, Float> & Sendable) -> Setter {
        .classifier { $0[keyPath: path] = Float($1) }
    }
    private static func classifier(_ path: WritableKeyPath<ImpactClassifier, Int> & Sendable) -> Setter {
        .classifier { $0[keyPath: path] = Int($1.rounded()) }
    }
    private static func parameter(_ path: WritableKeyPath<DetectorParameters, Float> & Sendable) -> Setter {
        .parameters { $0[keyPath: path] = Float($1) }
    }
    private static func parameter(_ path: WritableKeyPath<DetectorParameters, Double> & Sendable) -> Setter {
        .parameters { $0[keyPath: path] = $1 }
    }
    private static func parameter(_ path: WritableKeyPath<DetectorParameters, Int> & Sendable) -> Setter {
        .parameters { $0[keyPath: path] = Int($1.rounded()) }
    }
    private static func parameter(_ path: WritableKeyPath<DetectorParameters, Bool> & Sendable) -> Setter {
        .parameters { $0[keyPath: path] = $1 != 0 }
    }
    /// A time in seconds, given in milliseconds.
    private static func milliseconds(_ path: WritableKeyPath<DetectorParameters, Double> & Sendable) -> Setter {
        .parameters { $0[keyPath: path] = $1 / 1000 }
    }

    /// Every key and what it sets (docs/DETECTOR.md names each where it explains the parameter).
    static let keys: [String: Setter] = [
        "accept": classifier(\.acceptance),
        "attack": classifier(\.minimumAttackDB),
        "afloor": classifier(\.attackFloorDB),
        "abelow": classifier(\.attackBelowTypicalDB),
        "decay": classifier(\.maximumDecayDB),
        "centroid": classifier(\.tableCentroidHz),
        "high": classifier(\.maximumHighShare),
        "clear": classifier(\.clearAttackDB),
        "cbands": classifier(\.clearBands),
        "ctonal": classifier(\.clearTonality),
        "vclear": classifier(\.veryClearAttackDB),
        "vctonal": classifier(\.veryClearTonality),
        "ccentroid": classifier(\.clearCentroidHz),
        "cpflat": classifier(\.clearPeakyFlatnessDB),
        "cprelief": classifier(\.clearPeakyTonalityRelief),
        "struck": classifier(\.struckAcceptance),
        "cdecay": classifier(\.clearDecayDB),
        "tring": classifier(\.tableRingDecayDB),
        "gate": parameter(\.gateNats),
        "lag": parameter(\.fluxLag),
        "flux": parameter(\.minimumFlux),
        "dev": parameter(\.deviations),
        "fshare": parameter(\.fluxShareOfTypical),
        "flow": parameter(\.lowestFlux),
        "bg": parameter(\.backgroundSeconds),
        "noise": parameter(\.onsetNoiseFactor),
        "share": parameter(\.onsetPeakShare),
        "gap": parameter(\.onsetGapSeconds),
        "run": milliseconds(\.runSeconds),
        "runslow": parameter(\.runSlowest),
        "runfast": parameter(\.runFastest),
        "runfirst": milliseconds(\.runFirstSeconds),
        "runfirstmin": milliseconds(\.runFirstShortestSeconds),
        "runtrig": parameter(\.runTriggerDB),
        "runearlyretime": parameter(\.runEarlyRetimeClock),
        "runearlyretimeonclock": parameter(\.runEarlyRetimeOnClock),
        "runonset": parameter(\.runOnsetFactor),
        "runonsetwin": milliseconds(\.runOnsetSeconds),
        "runonsetreach": milliseconds(\.runOnsetReachSeconds),
        "runonsetfit": milliseconds(\.runOnsetFitSeconds),
        "runonsetalarm": parameter(\.runOnsetAlarm),
        "runonsetdrift": parameter(\.runOnsetDrift),
        "runonsetcap": parameter(\.runOnsetCap),
        "runerr": parameter(\.runErrorAlarm),
        "runerrreach": milliseconds(\.runErrorReachSeconds),
        "runerrlength": parameter(\.ringErrorRunLength),
        "runerrpace": parameter(\.ringErrorPace),
        "runerrclock": parameter(\.ringErrorTriggerClock),
        "runshape": parameter(\.runShapeDB),
        "runlouder": parameter(\.runLouderDB),
        "runtonal": parameter(\.runTonality),
        "runcliptonal": parameter(\.runClippedTonalityShare),
        "runclipretime": parameter(\.runClipRetimeRise),
        "runclipretimeshare": parameter(\.runClipRetimeShare),
        "runclipretimerejected": parameter(\.runClipRetimeRejectedShare),
        "runclipretimerefine": milliseconds(\.runClipRetimeRefine),
        "runclipretimerejectedrun": parameter(\.runClipRetimeRejectedRun),
        "runclipretimeattack": parameter(\.runClipRetimeAttackDB),
        "runclipretimeinnov": parameter(\.runClipRetimeInnovationDB),
        "runclipretimeclock": parameter(\.runClipRetimeKeepsClock),
        "rundecay": parameter(\.runDecayDB),
        "runnoexcess": parameter(\.runBandsWithoutExcess),
        "runbands": parameter(\.runBands),
        "runattack": parameter(\.runAttackDB),
        "runearlyattack": parameter(\.runEarlyAttackDB),
        "faintbright": parameter(\.faintBrightAttackDB),
        "faintbrightbands": parameter(\.faintBrightBands),
        "faintbrightratio": parameter(\.faintBrightCentroidRatio),
        "runlike": parameter(\.runLikeShapeDB),
        "runlikeattack": parameter(\.runLikeAttackDB),
        "runlikebands": parameter(\.runLikeBands),
        "runlikepace": parameter(\.runLikePace),
        "runlikefirst": milliseconds(\.runLikeFirstSeconds),
        "runlikefirstshape": parameter(\.runLikeFirstShapeDB),
        "runlikefirstquieter": parameter(\.runLikeFirstQuieterDB),
        "runlikefirstattack": parameter(\.runLikeFirstAttackDB),
        "runstartinnov": parameter(\.runStartInnovationDB),
        "runbreak": parameter(\.runLouderBreaksDB),
        "runbreaktwo": .parameters { $0.runLouderBreaksOverTwo = $1 != 0 },
        "runresumelong": .parameters { $0.runResumesPastRunSeconds = $1 != 0 },
        "runrestart": parameter(\.runLouderRestartsDB),
        "runearly": parameter(\.runEarlyExcessDB),
        "unlikeaccept": parameter(\.unlikeResonanceAcceptance),
        "runearlyquieter": parameter(\.runEarlyQuieterDB),
        "runstartinnovattack": parameter(\.runStartInnovationAttackDB),
        "runstartinnovfirst": milliseconds(\.runStartInnovationShortestSeconds),
        "runlooseshape": parameter(\.runLikeFirstLooseShapeDB),
        "runlooseinnov": parameter(\.runLooseInnovationDB),
        "runloosethird": parameter(\.runLikeThirdLooseShapeDB),
        "runlooselater": parameter(\.runLooseLaterShapeDB),
        "runlooseflat": parameter(\.runLooseFlatnessDB),
        "runontime": parameter(\.runOnTime),
        "runlikethird": parameter(\.runLikeThirdShapeDB),
        "rejrun": parameter(\.rejectedRunShapeDB),
        "rejrunattack": parameter(\.rejectedRunAttackDB),
        "rejrunlength": parameter(\.rejectedRunLength),
        "rejrunbands": parameter(\.rejectedRunBands),
        "tpl": parameter(\.templateCount),
        "tpllead": milliseconds(\.templateLeadSeconds),
        "tpllen": milliseconds(\.templateLengthSeconds),
        "tpllag": milliseconds(\.templateLagSeconds),
        "tplfit": milliseconds(\.templateFitSeconds),
        "tplspread": parameter(\.templateRateSpread),
        "tplsteps": parameter(\.templateRateSteps),
        "tpllearn": parameter(\.templateLearnAttackDB),
        "tplaccept": parameter(\.templateAcceptShare),
        "tplfloor": parameter(\.templateFloor),
        "tplmin": parameter(\.templateMinimum),
        "tplscore": parameter(\.templateScoreAttackDB),
        "tplrecover": parameter(\.templateRecoverAttackDB),
        "tpltypical": parameter(\.templateNoisyRoomDB),
        "tplafter": milliseconds(\.templateAfterReportSeconds),
        "tpltonal": parameter(\.templateTonality),
        "tplthud": parameter(\.templateThudAcceptShare),
        "runclockgaps": parameter(\.runClockGaps),
        "runontimeshape": parameter(\.runOnTimeShapeDB),
        "runstir": parameter(\.runStirQuieterDB),
        "runstirclock": parameter(\.runStirClockError),
        "runonclock": parameter(\.runOnClockError),
        "runonclockattack": parameter(\.runOnClockAttackDB),
        "runonclockinnov": parameter(\.runOnClockInnovationDB),
        "runonclockloose": parameter(\.runOnClockLooseInnovationDB),
        "runonclocklooseclock": parameter(\.runOnClockLooseError),
        "runreplace": milliseconds(\.runReplaceSeconds),
        "runreplaceclock": parameter(\.runReplaceClock),
        "runreplacecloser": parameter(\.runReplaceCloser),
        "runreplacemost": parameter(\.runReplaceClockMost),
        "runreplacetrig": .parameters { $0.runReplaceTriggers = $1 != 0 },
        "runonclockunlike": parameter(\.runOnClockUnlikeError),
        "runonclockunlikerun": .parameters { $0.runOnClockUnlikeRun = Int($1.rounded()) },
        "runonclockunlikeattack": parameter(\.runOnClockUnlikeAttackDB),
        "runonclockunlikeinnov": parameter(\.runOnClockUnlikeInnovationDB),
        "runontimeattack": parameter(\.runOnTimeAttackDB),
        "runontimedecay": parameter(\.runOnTimeDecayDB),
        "runclock": parameter(\.runClockTolerance),
        "runoffclock": parameter(\.runOffClock),
        "runinnov": parameter(\.runInnovationDB),
        "runinnovattack": parameter(\.runInnovationAttackDB),
        "runinnovfaint": parameter(\.runInnovationFaintDB),
        "runinnovfaintattack": parameter(\.runInnovationFaintAttackDB),
        "runinnovquieter": parameter(\.runInnovationQuieterDB),
        "runinnovdecay": parameter(\.runInnovationDecayDB),
        "runinnovlen": milliseconds(\.runInnovationSeconds),
        "runinnovlead": milliseconds(\.runInnovationLeadSeconds),
        "runpredicted": parameter(\.runOnTimePredictedDB),
        "runretime": parameter(\.runRetimeDB),
        "runretimeskip": milliseconds(\.runRetimeSkipSeconds),
        "runretimescope": parameter(\.runRetimeScope),
        "runretimerejected": .parameters { $0.runRetimeRejected = $1 != 0 },
        "runretimerejectedclock": parameter(\.runRetimeRejectedClock),
        "stronger": parameter(\.strongerOnsetRatio),
        "applause": parameter(\.applauseTolerance),
        "applausemin": .parameters { $0.applausePeriodSeconds = $1 / 1000...max($1 / 1000, $0.applausePeriodSeconds.upperBound) },
        "applausemax": .parameters { $0.applausePeriodSeconds = $0.applausePeriodSeconds.lowerBound...max($1 / 1000, $0.applausePeriodSeconds.lowerBound) },
        "applauseattack": parameter(\.applauseAttackDB),
        "applausespeed": parameter(\.applauseSpeedUp),
        "applauselouder": parameter(\.applauseSpeedUpLouderDB),
        "applausealive": parameter(\.applauseAlivePeriods),
        "applauseclearer": parameter(\.applauseClearerDB),
        "applauseskips": parameter(\.applauseSkips),
        "applausedense": parameter(\.applauseDensityCount),
        "applausedensems": milliseconds(\.applauseDensitySeconds),
        "applausegrow": parameter(\.applauseDensityGrowths),
        "applauselevel": parameter(\.applauseDensityLevelDB),
        "slike": parameter(\.streamLikeShapeDB),
        "slikeattack": parameter(\.streamLikeAttackDB),
        "slikebelow": parameter(\.streamLikeBelowTypicalDB),
        "clearlike": parameter(\.clearLikeShapeDB),
        "unlikepeaky": parameter(\.unlikePeakyFlatnessDB),
        "unlikepeakydecay": parameter(\.unlikePeakyDecayDB),
        "unlikepeakyattack": parameter(\.unlikePeakyAttackDB),
        "mincentroid": parameter(\.minimumCentroidHz),
        "faintcentroid": parameter(\.faintCentroidHz),
        "faintcentroidattack": parameter(\.faintCentroidAttackDB),
        "faintcentroidsnr": parameter(\.faintCentroidSNRDB),
        "flat": parameter(\.clapFlatnessDB),
        "flatattack": parameter(\.clapFlatnessAttackDB),
        "brightflat": parameter(\.brightFlatnessDB),
        "brightflatratio": parameter(\.brightFlatCentroidRatio),
        "brightflatattack": parameter(\.brightFlatAttackDB),
        "brightflatballs": parameter(\.brightFlatMinimumBalls),
        "brightflatroom": parameter(\.brightFlatQuietRoomDB),
        "unlikestruck": parameter(\.unlikeNotStruck),
        "stemplates": parameter(\.streamTemplates),
        "ext": milliseconds(\.onsetExtensionSeconds),
        "extshare": parameter(\.onsetExtensionShare),
        "onsetlag": milliseconds(\.onsetLagSeconds),
        "onsetlagshare": parameter(\.onsetLagShare),
        "reanchor": parameter(\.reanchorMargin),
        "racket": parameter(\.racketTrigger),
        "rmin": parameter(\.racketMinimumScale),
        "rdev": parameter(\.racketDeviations),
        "raccept": parameter(\.racketAcceptance),
        "rbands": parameter(\.racketBands),
        "rupgrade": parameter(\.racketUpgrade),
        "rrise": parameter(\.racketRiseDB),
        "bandattack": parameter(\.bandAttack),
        "release": parameter(\.releaseAfterNonImpact),
        "warm": parameter(\.warmStart),
        "typstart": parameter(\.typicalStartAttackDB),
        "typprior": parameter(\.typicalPriorWeight),
        "typfluxwarm": parameter(\.typicalFluxWarmStart),
        "typfluxstart": parameter(\.typicalStartFlux),
        "streamlikemin": parameter(\.streamLikeMinimumBalls),
        "btrig": parameter(\.bandRiseTriggerDB),
        "bsnr": parameter(\.bandRiseSNRDB),
        "battack": parameter(\.bandRiseAttackDB),
        "bdecay": parameter(\.bandRiseDecayDB),
        "aref": milliseconds(\.attackReferenceSeconds),
        "model": parameter(\.candidateModel),
        "kpause": milliseconds(\.kindPauseSeconds),
        "kmargin": parameter(\.kindMarginDB),
        "clip": parameter(\.clippedShare),
        "clipattack": parameter(\.clippedAttackDB),
        "clipbands": .parameters { $0.clippedBands = Int($1.rounded()) },
        "clipratio": parameter(\.clippedBeforeRatio),
        "clipringratio": parameter(\.clippedRingingRatio),
        "clipringdecay": parameter(\.clippedRingingDecayDB),
        "runclip": parameter(\.runClippedShare),
        "runclipratio": parameter(\.runClippedBeforeRatio),
        "runcliprising": parameter(\.runClippedRisingRatio),
        "runcliprisingattack": parameter(\.runClippedRisingAttackDB),
        "runclippace": parameter(\.runClippedPaceShare),
        "runclippaceattack": parameter(\.runClippedPaceAttackDB),
        "runclippacedecay": parameter(\.runClippedPaceDecayDB),
        "runclippaceclock": parameter(\.runClippedPaceClock),
        "runpacefast": parameter(\.runPaceFastest),
        "runpaceslow": parameter(\.runPaceSlowest),
        "kreturn": .parameters { $0.kindReturnTeaches = $1 != 0 },
        "kserve": .parameters { $0.kindServeBouncesUntaught = $1 != 0 },
        "kmemory": .parameters { $0.kindMemory = max(1, Int($1.rounded())) },
        "ktemplates": parameter(\.kindTemplates),
        "kuncertain": parameter(\.kindUncertaintyDB),
        "kshown": parameter(\.kindShownDB),
        "serveattack": parameter(\.serveBounceAttackDB),
        "servebands": parameter(\.serveBounceBands),
        "servedecay": parameter(\.serveBounceDecayDB),
        "serveflat": parameter(\.serveBounceFlatnessDB),
        "serveroom": parameter(\.serveBounceQuietRoomDB),
        "serveton": parameter(\.serveBounceTonality),
        "timbres": parameter(\.streamTimbres),
        "maccept": parameter(\.modelAcceptance),
        "mroom": parameter(\.modelNoisyRoomDB),
        "mrun": parameter(\.modelRunLength),
        "mballs": parameter(\.modelMinimumBalls),
        "mclip": parameter(\.modelClippedShare),
        "mafter": milliseconds(\.modelAfterReportSeconds),
    ]
}
