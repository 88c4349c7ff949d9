import Foundation
import Testing

/// The module split (README, "Layout") as `.ci/module-deps` checks it on `swift package describe`: the simulator and
/// PongClient never reach SessionHub, GRDB, PostgresNIO or Prometheus, and PongWire depends on nothing.
@Suite("module dependencies")
struct ModuleDependencyTests {
    static let python = "/usr/bin/python3"
    static var unavailable: String? {
        FileManager.default.isExecutableFile(atPath: python) ? nil : "\(python) is missing: .ci/module-deps needs it"
    }

    @Test("pong-player-sim and PongClient do not link the server; PongWire needs only Foundation",
          .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func clientSideStaysLean() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let checked = try ToolRun.run(Self.python, [repository.appendingPathComponent(".ci/module-deps").path,
                                                    repository.path])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdout.contains("module dependencies ok"))
    }
}
