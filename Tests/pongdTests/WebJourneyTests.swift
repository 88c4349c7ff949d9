import TestSupport
import Foundation
import Testing

/// The web client in a real browser (docs/WEB.md): `pongd serve` started here, and `Tests/Browser/web_journey.py`
/// driving Debian's headless Chromium through the pages' data-test hooks, with a fake camera and a fake microphone
/// playing a labelled rally made by `../shared/tools/gen_corpus.py`. A host and two players reach the lobby, a
/// denied camera joins without video, the bounces on the page and the dashboard match the labels within 10 ms,
/// a dropped connection resumes, a failed stream recovers, the session ends; the seed's budgets are checked.
@Suite("web client in headless Chromium", .serialized, .timeLimit(.minutes(4)))
struct WebJourneyTests {
    static let python = "/usr/bin/python3"
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let script = repository.appendingPathComponent("Tests/Browser/web_journey.py").path
    static let corpusTool = repository.deletingLastPathComponent().appendingPathComponent("shared/tools/gen_corpus.py").path

    /// Why the browser test cannot run here, or nil.
    static var unavailable: String? {
        for (path, package) in [("/usr/bin/chromium", "chromium"), ("/usr/bin/chromedriver", "chromium-driver")]
        where !FileManager.default.isExecutableFile(atPath: path) {
            return "\(path) is missing (apt-get install \(package)): no browser to drive"
        }
        guard (try? ToolRun.run(python, ["-c", "import selenium, numpy, scipy, soundfile"]))?.status == 0 else {
            return "\(python) lacks selenium or numpy/scipy/soundfile (apt-get install python3-selenium python3-numpy python3-scipy python3-soundfile)"
        }
        guard FileManager.default.fileExists(atPath: corpusTool) else {
            return "\(corpusTool) is missing: no labelled rally for the fake microphone"
        }
        return nil
    }

    @Test("host and players through the whole journey; bounces within 10 ms; resume, stream recovery, denied camera, end; budgets",
          .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func journey() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pongd-web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // 20 s of rallies at 20 dB SNR, 48 kHz mono, labelled (time_s,type).
        let made = try ToolRun.run(Self.python, [Self.corpusTool, "--seed", "3", "--dur", "20", "--snr", "20",
                                                 "--out", folder.appendingPathComponent("rally").path])
        try #require(made.status == 0, "\(made.stderr)")

        let port = freeLoopbackPort()
        let server = Process()
        server.executableURL = try ToolRun.pongd()
        server.arguments = ["serve", "--port", "\(port)", "--metrics-port", "0", "--log-level", "warning",
                            "--data-dir", folder.appendingPathComponent("data").path]
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        try await Self.waitUntilServing(port: port)

        let run = try ToolRun.run(Self.python, [
            Self.script, "--base", "http://127.0.0.1:\(port)",
            "--audio", folder.appendingPathComponent("rally_snr20.wav").path,
            "--labels", folder.appendingPathComponent("rally_events.csv").path,
        ])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
                                  "no report: \(run.stderr)")
        let checks = report["checks"] as? [String: [String: Any]] ?? [:]
        #expect(checks.count >= 14, "\(run.stderr)")
        for (name, result) in checks.sorted(by: { $0.key < $1.key }) {
            #expect(result["ok"] as? Bool == true, "\(name): \(result["detail"] ?? "")")
        }
        #expect(run.status == 0, "\(run.stderr)")

        // The seed's budgets, on the first player (nothing else streams yet; B's are in the report).
        let budgets = try #require((report["budgets"] as? [String: Any])?["A"] as? [String: Any])
        let transitions = budgets["transitions_ms"] as? [String: Double] ?? [:]
        #expect(transitions.count == 5)
        for (step, ms) in transitions { #expect(ms < 300, "screen transition \(step): \(ms) ms") }
        #expect((budgets["camera_preview_ms"] as? Double ?? .infinity) < 2000)
        #expect((budgets["stream_setup_to_ready_ms"] as? Double ?? .infinity) < 5000)
        #expect((budgets["code_entry_to_ready_ms"] as? Double ?? .infinity) <= 15000)
        print("web journey: \(run.stdout)")
    }

    /// Polls `GET /healthz` until pongd answers (at most 10 s).
    static func waitUntilServing(port: Int) async throws {
        for _ in 0..<100 {
            let ask = "import urllib.request; urllib.request.urlopen('http://127.0.0.1:\(port)/healthz', timeout=1)"
            if let answer = try? ToolRun.run(python, ["-c", ask]), answer.status == 0 {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "pongd did not start on port \(port)"])
    }
}
