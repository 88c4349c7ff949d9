import Foundation
import Testing
@testable import SessionHub

/// The Autobahn TestSuite (through PyPI's `kosoku`, a native port of its fuzzing client) against pongd's WebSocket
/// transport with an echo route (`AutobahnEchoServer`): sections 1–7 and 9 (issue 12, "RFC 6455 as written").
/// Every case must pass (`OK`, `NON-STRICT` or `INFORMATIONAL`, closed `OK` or `INFORMATIONAL`) unless it is in
/// `expectedFailures`, pongd's deliberate limits; BENCHMARKS.md has the counts and the command.
///
/// `AUTOBAHN_CASES` (comma-separated ids or globs) and `AUTOBAHN_PARALLELISM` override the selection and the number
/// of cases run at once; `AUTOBAHN_REPORT` keeps the report (JSON and HTML) in that folder.
@Suite("Autobahn TestSuite against pongd's WebSocket transport")
struct AutobahnTests {
    /// The cases CI runs: sections 1–7 and 9 whole.
    static let cases = ["1.*", "2.*", "3.*", "4.*", "5.*", "6.*", "7.*", "9.*"]
    static let parallelism = 2

    /// Cases pongd fails on purpose, by id prefix: the close code it sends (or, for a message answered and dropped,
    /// the 1000 echoed to the suite's own close) and the reason (docs/PROTOCOL.md's socket limits). Sections 1–7 have
    /// none.
    static let expectedFailures: [(prefix: String, closeCode: Int, reason: String)] = [
        ("9.1.2", 1000, "a 256 KiB text is over the 64 KiB text cap: answered with error message_too_large, dropped"),
        ("9.1.3", 1009, "a 1 MiB text is over the 256 KiB message cap"),
        ("9.1.4", 1009, "a 4 MiB text is over the 256 KiB message cap"),
        ("9.1.5", 1009, "an 8 MiB text is over the 256 KiB message cap"),
        ("9.1.6", 1009, "a 16 MiB text is over the 256 KiB message cap"),
        ("9.2.3", 1009, "a 1 MiB binary is over the 256 KiB message cap"),
        ("9.2.4", 1009, "a 4 MiB binary is over the 256 KiB message cap"),
        ("9.2.5", 1009, "an 8 MiB binary is over the 256 KiB message cap"),
        ("9.2.6", 1009, "a 16 MiB binary is over the 256 KiB message cap"),
        ("9.3.", 1009, "a 4 MiB fragmented text: over 64 fragments (64 B–4 KiB ones) or over 256 KiB"),
        ("9.4.", 1009, "a 4 MiB fragmented binary: over 64 fragments (64 B–4 KiB ones) or over 256 KiB"),
        ("9.5.", 1009, "a 1 MiB text frame (sent in chops) is over the 256 KiB frame cap"),
        ("9.6.", 1009, "a 1 MiB binary frame (sent in chops) is over the 256 KiB frame cap"),
    ]

    @Test("sections 1–7 and 9 pass but for pongd's documented limits",
          .enabled(if: Kosoku.executable != nil, "kosoku is not installed (pip install kosoku)"),
          .timeLimit(.minutes(10)))
    func suite() async throws {
        let environment = ProcessInfo.processInfo.environment
        let cases = environment["AUTOBAHN_CASES"].map { $0.split(separator: ",").map(String.init) } ?? Self.cases
        let parallelism = environment["AUTOBAHN_PARALLELISM"].flatMap { Int($0) } ?? Self.parallelism
        let folder = environment["AUTOBAHN_REPORT"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("pongd-autobahn-\(UUID().uuidString)")
        let server = try await AutobahnEchoServer.start()
        let port = server.port
        let started = ContinuousClock.now
        let run = try await blocking {
            try Kosoku.run(url: "ws://127.0.0.1:\(port)/", cases: cases, parallelism: parallelism, report: folder)
        }
        try await server.stop()
        let results = try Kosoku.results(in: folder)
        if environment["AUTOBAHN_REPORT"] == nil { try? FileManager.default.removeItem(at: folder) }
        print("autobahn: \(results.count) cases in \(ContinuousClock.now - started), kosoku exit \(run.status)")
        for line in Kosoku.summary(results) { print("autobahn: \(line)") }
        #expect(!results.isEmpty, "no report: \(run.output)")
        var unexpected: [Kosoku.Result] = []
        for result in results {
            if let expected = Self.expectedFailures.first(where: { result.id.hasPrefix($0.prefix) }) {
                #expect(!result.passed && result.remoteCloseCode == expected.closeCode,
                        "\(Self.verdict(result)); expected a failure with \(expected.closeCode): \(expected.reason)")
            } else if !result.passed {
                unexpected.append(result)
            }
        }
        // A case that failed is run once more, alone, on a fresh server: on a loaded machine the suite's wait for
        // the server's TCP close can pass (a close case then reads FAILED BY CLIENT). A real failure fails again.
        guard !unexpected.isEmpty else { return }
        print("autobahn: again, alone: \(unexpected.map(Self.verdict))")
        let again = try await AutobahnEchoServer.start()
        let againPort = again.port
        let againFolder = folder.deletingLastPathComponent().appendingPathComponent(folder.lastPathComponent + "-again")
        let againCases = unexpected.map(\.id)
        _ = try await blocking {
            try Kosoku.run(url: "ws://127.0.0.1:\(againPort)/", cases: againCases, parallelism: 1,
                           report: againFolder)
        }
        try await again.stop()
        let rerun = try Kosoku.results(in: againFolder)
        if environment["AUTOBAHN_REPORT"] == nil { try? FileManager.default.removeItem(at: againFolder) }
        for result in unexpected {
            let second = rerun.first { $0.id == result.id }
            #expect(second?.passed == true, "\(Self.verdict(result)), then \(second.map(Self.verdict) ?? "no result")")
        }
    }

    private static func verdict(_ result: Kosoku.Result) -> String {
        "\(result.id): \(result.behavior), close \(result.behaviorClose) with "
            + (result.remoteCloseCode.map(String.init) ?? "no code")
    }
}

/// Running `kosoku` and reading its report.
enum Kosoku {
    /// One case's verdicts from `index.json`.
    struct Result: Decodable {
        var id = ""
        var behavior: String
        var behaviorClose: String
        var remoteCloseCode: Int?
        var duration: Int
        enum CodingKeys: String, CodingKey { case behavior, behaviorClose, remoteCloseCode, duration }

        var passed: Bool {
            ["OK", "NON-STRICT", "INFORMATIONAL"].contains(behavior) && ["OK", "INFORMATIONAL"].contains(behaviorClose)
        }
        /// "9.1.3" → "9"; "1.1.1" → "1".
        var section: String { String(id.prefix { $0 != "." }) }
        /// "9.1.3" → [9, 1, 3], to sort case ids.
        var order: [Int] { id.split(separator: ".").map { Int($0) ?? 0 } }
    }

    /// The `kosoku` command: on the PATH or in pip's user folder (`pip install --user kosoku`).
    static let executable: String? = {
        let environment = ProcessInfo.processInfo.environment
        var folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        if let home = environment["HOME"] { folders.append(home + "/.local/bin") }
        return folders.map { $0 + "/kosoku" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Runs the fuzzing client against `url` and waits for it (its exit status is 1 when any case failed).
    static func run(url: String, cases: [String], parallelism: Int, report: URL) throws
        -> (status: Int32, output: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? "kosoku")
        process.arguments = ["-m", "fuzzingclient", url, "-p", "\(parallelism)", "-o", report.path]
            + cases.flatMap { ["-i", $0] }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The cases of the report in `folder`, in case order.
    static func results(in folder: URL) throws -> [Result] {
        let data = try Data(contentsOf: folder.appendingPathComponent("index.json"))
        let agents = try JSONDecoder().decode([String: [String: Result]].self, from: data)
        return agents.values.flatMap { $0.map { id, result in
            var result = result
            result.id = id
            return result
        } }.sorted { $0.order.lexicographicallyPrecedes($1.order) }
    }

    /// Per section: the count of each behaviour, and the failed cases.
    static func summary(_ results: [Result]) -> [String] {
        var lines: [String] = []
        for section in Set(results.map(\.section)).sorted(by: { Int($0) ?? 0 < Int($1) ?? 0 }) {
            let inSection = results.filter { $0.section == section }
            var counts: [String: Int] = [:]
            for result in inSection { counts[result.passed ? result.behavior : "FAILED", default: 0] += 1 }
            let failed = inSection.filter { !$0.passed }.map {
                "\($0.id) \($0.behavior)/\($0.behaviorClose)/\($0.remoteCloseCode.map(String.init) ?? "-")"
            }
            let times = inSection.map(\.duration).reduce(0, +)
            let tally = counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            lines.append("section \(section): \(tally), \(times) ms"
                + (failed.isEmpty ? "" : "; failed: " + failed.joined(separator: ", ")))
        }
        return lines
    }
}
