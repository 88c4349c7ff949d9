import ArgumentParser
import BounceDetector
import Foundation

/// `pongd detect FILE`: runs the streaming detector over a WAV, Ogg Opus or ADTS AAC file and prints impacts.
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Print the ball impacts heard in an audio file (CSV: time,kind,confidence).",
        discussion: """
            Runs exactly the streaming ImpactDetector the server runs on live audio, fed in file-sized chunks. \
            time is the onset in seconds from the first sample; kind is table, racket or unknown.
            """
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case csv, json }

    @Argument(help: "A WAV, Ogg Opus (.opus) or ADTS AAC file.")
    var file: String

    @Option(help: "csv (time,kind,confidence) or json.")
    var format: OutputFormat = .csv

    @Option(help: ArgumentHelp("Also write every candidate with its classifier features to this CSV (diagnostics).",
                               visibility: .hidden))
    var candidates: String?

    @Option(help: ArgumentHelp("Also write every hop's flux and trigger levels to this CSV (diagnostics).",
                               visibility: .hidden))
    var hops: String?

    @Option(help: ArgumentHelp("Override detector parameters, e.g. gate=1.6,flux=10,dev=5 (experiments).",
                               visibility: .hidden))
    var tune: String?

    func run() throws {
        var impacts: [Impact] = []
        do {
            var source = try AudioFile.open(path: file)
            let overrides = Self.parseTuning(tune)
            var classifier = ImpactClassifier()
            if let v = overrides["accept"] { classifier.acceptance = Float(v) }
            if let v = overrides["attack"] { classifier.minimumAttackDB = Float(v) }
            if let v = overrides["afloor"] { classifier.attackFloorDB = Float(v) }
            if let v = overrides["abelow"] { classifier.attackBelowTypicalDB = Float(v) }
            if let v = overrides["decay"] { classifier.maximumDecayDB = Float(v) }
            if let v = overrides["centroid"] { classifier.tableCentroidHz = Float(v) }
            if let v = overrides["high"] { classifier.maximumHighShare = Float(v) }
            if let v = overrides["clear"] { classifier.clearAttackDB = Float(v) }
            if let v = overrides["cbands"] { classifier.clearBands = Int(exactly: v.rounded()) ?? classifier.clearBands }
            if let v = overrides["ctonal"] { classifier.clearTonality = Float(v) }
            if let v = overrides["vclear"] { classifier.veryClearAttackDB = Float(v) }
            if let v = overrides["vctonal"] { classifier.veryClearTonality = Float(v) }
            if let v = overrides["ccentroid"] { classifier.clearCentroidHz = Float(v) }
            if let v = overrides["struck"] { classifier.struckAcceptance = Float(v) }
            if let v = overrides["cdecay"] { classifier.clearDecayDB = Float(v) }
            if let v = overrides["tring"] { classifier.tableRingDecayDB = Float(v) }
            let detector = try ImpactDetector(format: source.format, classifier: classifier) { p in
                if let v = overrides["gate"] { p.gateNats = Float(v) }
                if let v = overrides["lag"] { p.fluxLag = Int(exactly: v.rounded()) ?? p.fluxLag }
                if let v = overrides["flux"] { p.minimumFlux = Float(v) }
                if let v = overrides["dev"] { p.deviations = Float(v) }
                if let v = overrides["fshare"] { p.fluxShareOfTypical = Float(v) }
                if let v = overrides["flow"] { p.lowestFlux = Float(v) }
                if let v = overrides["bg"] { p.backgroundSeconds = v }
                if let v = overrides["noise"] { p.onsetNoiseFactor = Float(v) }
                if let v = overrides["share"] { p.onsetPeakShare = Float(v) }
                if let v = overrides["gap"] { p.onsetGapSeconds = v }
                if let v = overrides["run"] { p.runSeconds = v / 1000 }
                if let v = overrides["runslow"] { p.runSlowest = v }
                if let v = overrides["runfast"] { p.runFastest = v }
                if let v = overrides["runfirst"] { p.runFirstSeconds = v / 1000 }
                if let v = overrides["runfirstmin"] { p.runFirstShortestSeconds = v / 1000 }
                if let v = overrides["runtrig"] { p.runTriggerDB = Float(v) }
                if let v = overrides["runonset"] { p.runOnsetFactor = Float(v) }
                if let v = overrides["runonsetwin"] { p.runOnsetSeconds = v / 1000 }
                if let v = overrides["runonsetreach"] { p.runOnsetReachSeconds = v / 1000 }
                if let v = overrides["runonsetfit"] { p.runOnsetFitSeconds = v / 1000 }
                if let v = overrides["runonsetalarm"] { p.runOnsetAlarm = Float(v) }
                if let v = overrides["runonsetdrift"] { p.runOnsetDrift = Float(v) }
                if let v = overrides["runonsetcap"] { p.runOnsetCap = Float(v) }
                if let v = overrides["runerr"] { p.runErrorAlarm = Float(v) }
                if let v = overrides["runerrreach"] { p.runErrorReachSeconds = v / 1000 }
                if let v = overrides["runerrlength"] { p.ringErrorRunLength = Int(exactly: v.rounded()) ?? p.ringErrorRunLength }
                if let v = overrides["runerrpace"] { p.ringErrorPace = v }
                if let v = overrides["runshape"] { p.runShapeDB = Float(v) }
                if let v = overrides["runlouder"] { p.runLouderDB = Float(v) }
                if let v = overrides["runtonal"] { p.runTonality = Float(v) }
                if let v = overrides["rundecay"] { p.runDecayDB = Float(v) }
                if let v = overrides["runnoexcess"] { p.runBandsWithoutExcess = Int(exactly: v.rounded()) ?? 0 }
                if let v = overrides["runbands"] { p.runBands = Int(exactly: v.rounded()) ?? p.runBands }
                if let v = overrides["runattack"] { p.runAttackDB = Float(v) }
                if let v = overrides["runlike"] { p.runLikeShapeDB = Float(v) }
                if let v = overrides["runlikeattack"] { p.runLikeAttackDB = Float(v) }
                if let v = overrides["runlikebands"] { p.runLikeBands = Int(exactly: v.rounded()) ?? p.runLikeBands }
                if let v = overrides["runlikepace"] { p.runLikePace = v }
                if let v = overrides["runlikefirst"] { p.runLikeFirstSeconds = v / 1000 }
                if let v = overrides["runlikefirstshape"] { p.runLikeFirstShapeDB = Float(v) }
                if let v = overrides["runlikefirstquieter"] { p.runLikeFirstQuieterDB = Float(v) }
                if let v = overrides["runlikefirstattack"] { p.runLikeFirstAttackDB = Float(v) }
                if let v = overrides["runontime"] { p.runOnTime = v != 0 }
                if let v = overrides["runlikethird"] { p.runLikeThirdShapeDB = Float(v) }
                if let v = overrides["rejrun"] { p.rejectedRunShapeDB = Float(v) }
                if let v = overrides["rejrunattack"] { p.rejectedRunAttackDB = Float(v) }
                if let v = overrides["rejrunlength"] { p.rejectedRunLength = Int(exactly: v.rounded()) ?? p.rejectedRunLength }
                if let v = overrides["runontimeshape"] { p.runOnTimeShapeDB = Float(v) }
                if let v = overrides["runontimeattack"] { p.runOnTimeAttackDB = Float(v) }
                if let v = overrides["runontimedecay"] { p.runOnTimeDecayDB = Float(v) }
                if let v = overrides["runinnov"] { p.runInnovationDB = Float(v) }
                if let v = overrides["runinnovattack"] { p.runInnovationAttackDB = Float(v) }
                if let v = overrides["runinnovlen"] { p.runInnovationSeconds = v / 1000 }
                if let v = overrides["runinnovquieter"] { p.runInnovationQuieterDB = Float(v) }
                if let v = overrides["runinnovdecay"] { p.runInnovationDecayDB = Float(v) }
                if let v = overrides["runinnovfaintattack"] { p.runInnovationFaintAttackDB = Float(v) }
                if let v = overrides["runinnovfaint"] { p.runInnovationFaintDB = Float(v) }
                if let v = overrides["runretime"] { p.runRetimeDB = Float(v) }
                if let v = overrides["runretimeskip"] { p.runRetimeSkipSeconds = v / 1000 }
                if let v = overrides["runretimescope"] { p.runRetimeScope = Int(v) }
                if let v = overrides["stronger"] { p.strongerOnsetRatio = Float(v) }
                if let v = overrides["runpredicted"] { p.runOnTimePredictedDB = Float(v) }
                if let v = overrides["runinnovlead"] { p.runInnovationLeadSeconds = v / 1000 }
                if let v = overrides["runclock"] { p.runClockTolerance = v }
                if let v = overrides["runoffclock"] { p.runOffClock = v }
                if let v = overrides["applause"] { p.applauseTolerance = v }
                if let v = overrides["applausemin"] { p.applausePeriodSeconds = v / 1000...max(v / 1000, p.applausePeriodSeconds.upperBound) }
                if let v = overrides["applausemax"] { p.applausePeriodSeconds = p.applausePeriodSeconds.lowerBound...max(v / 1000, p.applausePeriodSeconds.lowerBound) }
                if let v = overrides["applauseattack"] { p.applauseAttackDB = Float(v) }
                if let v = overrides["applausespeed"] { p.applauseSpeedUp = v }
                if let v = overrides["applausealive"] { p.applauseAlivePeriods = v }
                if let v = overrides["applauseskips"] { p.applauseSkips = Int(v) }
                if let v = overrides["slike"] { p.streamLikeShapeDB = Float(v) }
                if let v = overrides["slikeattack"] { p.streamLikeAttackDB = Float(v) }
                if let v = overrides["slikebelow"] { p.streamLikeBelowTypicalDB = Float(v) }
                if let v = overrides["clearlike"] { p.clearLikeShapeDB = Float(v) }
                if let v = overrides["mincentroid"] { p.minimumCentroidHz = Float(v) }
                if let v = overrides["flat"] { p.clapFlatnessDB = Float(v) }
                if let v = overrides["flatattack"] { p.clapFlatnessAttackDB = Float(v) }
                if let v = overrides["unlikestruck"] { p.unlikeNotStruck = v != 0 }
                if let v = overrides["stemplates"] { p.streamTemplates = Int(exactly: v.rounded()) ?? p.streamTemplates }
                if let v = overrides["ext"] { p.onsetExtensionSeconds = v / 1000 }
                if let v = overrides["extshare"] { p.onsetExtensionShare = Float(v) }
                if let v = overrides["reanchor"] { p.reanchorMargin = Float(v) }
                if let v = overrides["racket"] { p.racketTrigger = v != 0 }
                if let v = overrides["rmin"] { p.racketMinimumScale = Float(v) }
                if let v = overrides["rdev"] { p.racketDeviations = Float(v) }
                if let v = overrides["raccept"] { p.racketAcceptance = Float(v) }
                if let v = overrides["rbands"] { p.racketBands = Int(exactly: v.rounded()) ?? p.racketBands }
                if let v = overrides["rupgrade"] { p.racketUpgrade = Int(exactly: v.rounded()) ?? p.racketUpgrade }
                if let v = overrides["rrise"] { p.racketRiseDB = Float(v) }
                if let v = overrides["bandattack"] { p.bandAttack = v != 0 }
                if let v = overrides["release"] { p.releaseAfterNonImpact = v != 0 }
                if let v = overrides["warm"] { p.warmStart = v != 0 }
                if let v = overrides["btrig"] { p.bandRiseTriggerDB = Float(v) }
                if let v = overrides["bsnr"] { p.bandRiseSNRDB = Float(v) }
                if let v = overrides["battack"] { p.bandRiseAttackDB = Float(v) }
                if let v = overrides["bdecay"] { p.bandRiseDecayDB = Float(v) }
                if let v = overrides["aref"] { p.attackReferenceSeconds = v / 1000 }
                if let v = overrides["model"] { p.candidateModel = v != 0 }
                if let v = overrides["kpause"] { p.kindPauseSeconds = v / 1000 }
                if let v = overrides["kmargin"] { p.kindMarginDB = Float(v) }
                if let v = overrides["kmemory"] { p.kindMemory = max(1, Int(v)) }
                if let v = overrides["maccept"] { p.modelAcceptance = Float(v) }
                if let v = overrides["mveto"] { p.modelVeto = Float(v) }
            }
            var candidateRows = "time,flux,snr_db,centroid_hz,tonality,high_share,decay_db,attack_db,contrast_db,ring_tonality,ring_contrast_db,persistence,coherence,rising_bands,wholeband_attack_db,trigger,band_levels_db,verdict,run_length,due,speeding,last_mean_db,last_spread_db,flatness_db,clock_err,innov_db\n"
            if candidates != nil {
                let rate = Double(source.format.sampleRate)
                detector.candidateObserver = { onset, f, flux, evidence, decision in
                    candidateRows += String(format: "%.5f,%.2f,%.2f,%.0f,%.3f,%.3f,%.2f,%.2f,%.2f,%.3f,%.2f,%.3f,%.3f,%d,%.2f,%d,", Double(onset) / rate, flux,
                                            f.snrDB, f.centroidHz, f.tonality, f.highShare, f.decayDB, f.attackDB, f.peakContrastDB,
                                            f.ringingTonality, f.ringingContrastDB, f.peakPersistence, f.lineCoherence, f.risingBands, f.wholeBandAttackDB, evidence.rawValue)
                    // The onset bands' levels (dB; lanes past the rate's bands are −∞), one field separated by spaces.
                    candidateRows += (0..<8).filter { f.bandLevelsDB[$0].isFinite }.map { String(format: "%.1f", f.bandLevelsDB[$0]) }
                        .joined(separator: " ")
                    candidateRows += ",\(decision.rule.name),\(decision.runLength),\(decision.due ? 1 : 0),\(decision.speedingUp ? 1 : 0)," + String(format: "%.2f,%.2f,%.2f,%.4f,%.2f\n", decision.lastMeanDB, decision.lastSpreadDB, f.flatnessDB, decision.clockError, decision.innovationDB)
                }
            }
            var hopRows = "time,flux,threshold,racket,racket_threshold\n"
            if hops != nil {
                let rate = Double(source.format.sampleRate)
                detector.hopObserver = { end, flux, threshold, racket, racketThreshold in
                    hopRows += String(format: "%.5f,%.2f,%.2f,%.2f,%.2f\n", Double(end) / rate, flux, threshold, racket,
                                      racketThreshold)
                }
            }
            try source.forEachChunk { chunk in
                detector.process(chunk) { impacts.append($0) }
            }
            detector.finish { impacts.append($0) }
            for (path, rows) in [(candidates, candidateRows), (hops, hopRows)] {
                guard let path else { continue }
                do {
                    try rows.write(toFile: path, atomically: true, encoding: .utf8)
                } catch {
                    let reason = "pongd detect: cannot write \(path): \(error.localizedDescription)\n"
                    FileHandle.standardError.write(Data(reason.utf8))
                    throw ExitCode.failure
                }
            }
        } catch let error as AudioError {
            FileHandle.standardError.write(Data("pongd detect: \(file): \(error.message)\n".utf8))
            throw ExitCode.failure
        }
        print(Self.render(impacts, as: format), terminator: "")
    }

    private static func parseTuning(_ text: String?) -> [String: Double] {
        var values: [String: Double] = [:]
        for pair in (text ?? "").split(separator: ",") {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
        }
        return values
    }

    /// The impacts as CSV (header `time,kind,confidence`, time to 4 decimals) or a JSON array.
    static func render(_ impacts: [Impact], as format: OutputFormat) -> String {
        switch format {
        case .csv:
            var out = "time,kind,confidence\n"
            for impact in impacts {
                out += "\(String(format: "%.4f", impact.time)),\(impact.kind.rawValue),\(String(format: "%.3f", impact.confidence))\n"
            }
            return out
        case .json:
            let rows = impacts.map {
                #"{"time":\#(String(format: "%.4f", $0.time)),"kind":"\#($0.kind.rawValue)","confidence":\#(String(format: "%.3f", $0.confidence))}"#
            }
            return "[" + rows.joined(separator: ",") + "]\n"
        }
    }
}
