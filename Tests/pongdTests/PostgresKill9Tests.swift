import Foundation
import Testing

/// `pongd serve --database postgres://…` end to end, on real processes: `kill9_durability.py --postgres` starts a
/// PostgreSQL server of its own, and for each kind a guest host creates a session (`create`), a player takes a seat
/// (`join`) or sends its stream settings (`streamconfig`); pongd is killed with SIGKILL the instant the change is
/// acknowledged and restarted on the same database, and the session, the seat and the journey must be there.
@Suite("kill -9 with the store in PostgreSQL", .serialized)
struct PostgresKill9Tests {
    /// The newest Debian PostgreSQL server binaries, if any.
    static var unavailable: String? {
        guard FileManager.default.isExecutableFile(atPath: Kill9DurabilityTests.python) else {
            return "\(Kill9DurabilityTests.python) is not installed"
        }
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        let found = versions.contains { FileManager.default.isExecutableFile(atPath: "\(root)/\($0)/bin/initdb") }
        return found ? nil : "no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (Debian's postgresql package)"
    }

    @Test("a session, a seat and a journey step survive kill -9 and a restart on PostgreSQL",
          .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")), .timeLimit(.minutes(3)))
    func sessionAndSeat() throws {
        let run = try ToolRun.run(Kill9DurabilityTests.python, [
            Kill9DurabilityTests.script, ToolRun.pongd().path, "--postgres", "--kinds", "create,join,streamconfig",
            "--rounds", "2",
        ])
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
            "no JSON summary (status \(run.status)): \(run.stderr)")
        #expect(summary["store"] as? String == "postgres")
        // Read from PostgreSQL by psql: the sessions and seats are there, not in a SQLite file.
        let rows = try #require(summary["postgresRows"] as? [String: [String: Int]], "\(run.stdout)")
        #expect((rows["create"]?["session"] ?? 0) >= 2 && (rows["join"]?["membership"] ?? 0) >= 2, "\(rows)")
        let kinds = try #require(summary["kinds"] as? [String: [String: Any]])
        #expect(kinds.keys.sorted() == ["create", "join", "streamconfig"])
        for (kind, result) in kinds.sorted(by: { $0.key < $1.key }) {
            let failures = result["failures"] as? [String] ?? []
            #expect(result["rounds"] as? Int == 2, "\(kind)")
            #expect(result["lost"] as? Int == 0, "\(kind): lost \(failures)")
            #expect(result["resurrected"] as? Int == 0, "\(kind): resurrected \(failures)")
            #expect(result["errors"] as? Int == 0,
                    "\(kind): could not run \(failures) (logs: \(summary["work"] ?? ""))")
        }
        #expect(run.status == 0, "\(run.stderr)")
    }
}
