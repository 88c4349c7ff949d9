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
        let tuning: [(key: String, value: Double)]
        do {
            tuning = try DetectorTuning.parse(tune ?? "")
        } catch {
            FileHandle.standardError.write(Data("pongd detect: \(error.description)\n".utf8))
            throw ExitCode.validationFailure
        }
        var impacts: [Impact] = []
        do {
            var source = try AudioFile.open(path: file)
            var classifier = ImpactClassifier()
            DetectorTuning.apply(tuning, to: &classifier)
            let detector = try ImpactDetector(format: source.format, classifier: classifier) { p in
                DetectorTuning.apply(tuning, to: &p)
            }
            var candidateRows = "time,flux,snr_db,centroid_hz,tonality,high_share,decay_db,attack_db,contrast_db,ring_tonality,ring_contrast_db,persistence,coherence,rising_bands,wholeband_attack_db,trigger,band_levels_db,verdict,run_length,due,speeding,last_mean_db,last_spread_db,flatness_db,clock_err,innov_db,tpl_cos,tpl_ref,clipped,clipped_before,timed_by,rise_median_db,rise_q25_db,rise_share6,rise_share3,rise_mean_db,typical_attack_db\n"
            if candidates != nil {
                let rate = Double(source.format.sampleRate)
                detector.candidateObserver = { onset, f, flux, evidence, decision in
                    candidateRows += String(format: "%.5f,%.2f,%.2f,%.0f,%.3f,%.3f,%.2f,%.2f,%.2f,%.3f,%.2f,%.3f,%.3f,%d,%.2f,%d,", Double(onset) / rate, flux,
                                            f.snrDB, f.centroidHz, f.tonality, f.highShare, f.decayDB, f.attackDB, f.peakContrastDB,
                                            f.ringingTonality, f.ringingContrastDB, f.peakPersistence, f.lineCoherence, f.risingBands, f.wholeBandAttackDB, evidence.rawValue)
                    // The onset bands' levels (dB; lanes past the rate's bands are −∞), one field separated by spaces.
                    candidateRows += (0..<8).filter { f.bandLevelsDB[$0].isFinite }.map { String(format: "%.1f", f.bandLevelsDB[$0]) }
                        .joined(separator: " ")
                    candidateRows += ",\(decision.rule.name),\(decision.runLength),\(decision.due ? 1 : 0),\(decision.speedingUp ? 1 : 0)," + String(format: "%.2f,%.2f,%.2f,%.4f,%.2f,%.3f,%.3f,%.3f,%.3f,", decision.lastMeanDB, decision.lastSpreadDB, f.flatnessDB, decision.clockError, decision.innovationDB, decision.templateCosine, decision.templateReference, f.clippedShare, f.clippedBeforeShare) + decision.timing.rawValue
                        + String(format: ",%.2f,%.2f,%.3f,%.3f,%.2f,%.2f\n", decision.rise.medianDB,
                                 decision.rise.lowerQuartileDB, decision.rise.shareOver6DB, decision.rise.shareOver3DB,
                                 decision.rise.meanDB, decision.typicalAttackDB)
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
