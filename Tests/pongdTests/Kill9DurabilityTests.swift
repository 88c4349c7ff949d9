import Foundation
import Testing

/// Issue 13, "Durable by construction", on a real process: `Benchmarks/Scripts/kill9_durability.py` kills
/// `pongd serve` with SIGKILL the instant each kind of acknowledged change is acknowledged, restarts it on the same
/// data folder and checks through the API that the change is there and that nothing ended came back
/// (BENCHMARKS.md has the 50-round run).
@Suite("kill -9 right after each acknowledged change", .serialized)
struct Kill9DurabilityTests {
    /// Debian's python3 (standard library only).
    static let python = "/usr/bin/python3"
    static var unavailable: String? {
        FileManager.default.isExecutableFile(atPath: python) ? nil : "\(python) is not installed"
    }

    static let script = RealCorpusToolTests.repository
        .appendingPathComponent("Benchmarks/Scripts/kill9_durability.py").path

    /// A few rounds of every kind (the slow ones fewer), about 70 s in a debug build. `profile` gets more: its
    /// journey step was lost in about 1 round of 3 before `PlayerJourney(restoring:)` completed it from the name.
    static let arguments = ["--rounds", "3", "--rounds-of", "profile=6", "--rounds-of", "activity=1",
                            "--rounds-of", "signup=1", "--rounds-of", "start=2", "--rounds-of", "ready=2",
                            "--rounds-of", "test=2"]

    @Test("nothing acknowledged is lost and nothing ended comes back (every kind of change)",
          .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")), .timeLimit(.minutes(5)))
    func everyKind() throws {
        let run = try ToolRun.run(Self.python, [Self.script, ToolRun.pongd().path] + Self.arguments)
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
            "no JSON summary (status \(run.status)): \(run.stderr)")
        let kinds = try #require(summary["kinds"] as? [String: [String: Any]])
        #expect(kinds.count == 15, "\(kinds.keys.sorted())")
        for (kind, result) in kinds.sorted(by: { $0.key < $1.key }) {
            let failures = result["failures"] as? [String] ?? []
            #expect(result["lost"] as? Int == 0, "\(kind): lost \(failures)")
            #expect(result["resurrected"] as? Int == 0, "\(kind): resurrected \(failures)")
            #expect(result["errors"] as? Int == 0, "\(kind): could not run \(failures) (logs: \(summary["work"] ?? ""))")
            #expect((result["rounds"] as? Int ?? 0) >= 1, "\(kind): no round ran")
        }
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test("""
        the harness takes a server for started only when the server's own log says its API listens on the port: \
        another server's metrics listener that took the port first is not it (CI once saw one answer /healthz, \
        then every request of the round with 404s); and no port is handed out twice
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func listenerIsTheServers() throws {
        let folder = URL(fileURLWithPath: Self.script).deletingLastPathComponent().path
        let check = """
            import sys, tempfile
            sys.path.insert(0, \(String(reflecting: folder)))
            from kill9_durability import free_port, listening
            log = tempfile.NamedTemporaryFile("w", suffix=".log", delete=False)
            log.write("2026-11-27T17:45:50+0000 info pongd: http.host=127.0.0.1 http.port=42097 listener=metrics [SessionHub] listening\\n")
            log.flush()
            print(listening(log.name, 42097), listening(log.name, 4209))
            log.write("2026-11-27T17:45:50+0000 info pongd: http.host=127.0.0.1 http.port=42097 [SessionHub] listening\\n")
            log.flush()
            print(listening(log.name, 42097), listening("/nonexistent.log", 42097))
            ports = [free_port() for _ in range(200)]
            print(len(set(ports)) == len(ports))
            """
        let run = try ToolRun.run(Self.python, ["-c", check])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n") == ["False False", "True False", "True"], "\(run.stdout)")
    }
}
