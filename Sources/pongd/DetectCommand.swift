import ArgumentParser
import BounceDetector
import Foundation

/// `pongd detect FILE`: runs the streaming detector over a WAV, Ogg Opus or ADTS AAC file and prints impacts.
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Print the ball impacts heard in an audio file (CSV: time,kind,confidence).",
        discussion: "The detector is the interim energy-rise detector (EnergyOnsetDetector); kind is 'unknown'."
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case csv, json }

    @Argument(help: "A WAV, Ogg Opus (.opus) or ADTS AAC file.")
    var file: String

    @Option(help: "csv (time,kind,confidence) or json.")
    var format: OutputFormat = .csv

    func run() throws {
        var impacts: [Impact] = []
        do {
            var source = try AudioFile.open(path: file)
            var detector = EnergyOnsetDetector(format: source.format)
            try source.forEachChunk { chunk in
                detector.process(chunk) { impacts.append($0) }
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
