import Foundation
import Testing

/// The web client on two nodes in a real browser (issue 15; docs/WEB.md "On several nodes"): `Tests/Browser/web_nodes.py`
/// starts a throwaway PostgreSQL and two `pongd serve` nodes A and B on it (each allowing the other's origin), a host
/// creates a session on A, and headless Chromium loads the player page from B (`/join/{code}`) through the journey to
/// the lobby: its join, forwarded to A, answers A's absolute socket URL and the page's socket is on A. A is drained
/// (SIGTERM): the page follows the 4101 close to B at once, resumes its seat there (same player id, the overlay gone),
/// B holds its socket and its audio, and the lobby lists it once, still ready.
@Suite("web client on two nodes in headless Chromium", .serialized, .timeLimit(.minutes(3)))
struct WebNodesTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/web_nodes.py").path

    /// Why the browser test cannot run here, or nil.
    static var unavailable: String? {
        for (path, package) in [("/usr/bin/chromium", "chromium"), ("/usr/bin/chromedriver", "chromium-driver")]
        where !FileManager.default.isExecutableFile(atPath: path) {
            return "\(path) is missing (apt-get install \(package)): no browser to drive"
        }
        if let missing = PostgresKill9Tests.unavailable { return missing }
        guard (try? ToolRun.run(WebJourneyTests.python, ["-c", "import selenium"]))?.status == 0 else {
            return "\(WebJourneyTests.python) lacks selenium (apt-get install python3-selenium)"
        }
        return nil
    }

    @Test("a page served by B joins a session of A (socket on A); A drained: 4101 followed at once to B, same seat",
          .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func drainMovesThePage() throws {
        let started = ContinuousClock.now
        let run = try ToolRun.run(WebJourneyTests.python, [Self.script, "--pongd", try ToolRun.pongd().path])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
                                  "no report: \(run.stderr)")
        let checks = report["checks"] as? [String: [String: Any]] ?? [:]
        #expect(checks.count >= 11, "\(run.stderr)")
        for (name, result) in checks.sorted(by: { $0.key < $1.key }) {
            #expect(result["ok"] as? Bool == true, "\(name): \(result["detail"] ?? "")")
        }
        // "At once": the welcome on B well before a lease (2 s) could have run out.
        let move = try #require(report["move"] as? [String: Any], "\(run.stderr)")
        #expect((move["sigterm_to_welcome_s"] as? Double ?? .infinity) < 2, "\(move)")
        #expect(run.status == 0, "\(run.stderr)")
        print("web client on two nodes: \(ContinuousClock.now - started), \(run.stdout)")
    }
}
