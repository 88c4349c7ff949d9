import Foundation
import Testing

/// The prober measured on real links: `pongd serve` in one network namespace, a phone (`pong-player-sim probe`) in
/// another, the phone's upload shaped by the kernel's token bucket filter, and a delay from linkemu.py. Skipped, with
/// the reason, where namespaces cannot be made.
@Suite("Shaped links", .serialized, .enabled(if: NetworkLab.available, Comment(rawValue: NetworkLab.unavailableReason)),
       .timeLimit(.minutes(2)))
struct ShapedLinkTests {
    /// An executable built beside this test bundle.
    private func product(_ name: String) throws -> URL {
        var folder = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw NetworkLab.LabError("\(name) not found beside \(Bundle.main.bundleURL.path)")
    }

    /// Runs a server in the lab's server namespace and one phone's connection test from the phone namespace;
    /// returns the server's `connectionTest` result.
    private func connectionTest(in lab: NetworkLab) throws -> [String: Any] {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("pongd-link-\(UUID().uuidString)")
        let server = try lab.launch(in: lab.serverNamespace, try product("pongd"), [
            "serve", "--host", lab.serverAddress, "--port", "0", "--metrics-port", "0", "--data-dir", data.path,
            "--log-level", "error",
        ])
        defer {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
            try? FileManager.default.removeItem(at: data)
        }
        let port = try lab.listeningPort(of: server.processIdentifier, in: lab.serverNamespace,
                                         on: lab.serverAddress, seconds: 20)
        let output = Pipe()
        let errorsFile = FileManager.default.temporaryDirectory.appendingPathComponent("pongd-link-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        let errors = try FileHandle(forWritingTo: errorsFile)
        defer {
            try? errors.close()
            try? FileManager.default.removeItem(at: errorsFile)
        }
        let phone = try lab.launch(in: lab.phoneNamespace, try product("pong-player-sim"), [
            "probe", "--server", "http://\(lab.serverAddress):\(port)", "--timeout", "30", "--json",
        ], output: output, errors: errors)
        let watchdog = DispatchWorkItem { if phone.isRunning { kill(phone.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 45, execute: watchdog)
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        phone.waitUntilExit()
        let complaint = (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? ""
        watchdog.cancel()
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        guard phone.terminationStatus == 0, let last = lines.last,
              let result = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
        else {
            throw NetworkLab.LabError("pong-player-sim probe failed (\(phone.terminationStatus)): \(complaint.suffix(300))")
        }
        return result
    }

    @Test("the upload rate through tbf is measured within ±25 % and graded", arguments: [
        (1.5, "poor"), (3.5, "fair"), (12.0, "good"),
    ])
    func shapedUpload(mbit: Double, grade: String) throws {
        let lab = try NetworkLab.veth(shapingPhoneUploadTo: mbit, tag: "\(getpid() % 10000)\(Int(mbit * 10))")
        defer { lab.tearDown() }
        let result = try connectionTest(in: lab)
        let measured = try #require(result["uploadMbps"] as? Double)
        #expect(abs(measured - mbit) <= 0.25 * mbit, "measured \(measured) Mbps through a \(mbit) Mbit/s bucket")
        #expect(result["grade"] as? String == grade)
    }

    @Test("round trips through linkemu.py's delay are measured within ±25 %")
    func delayedLink() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/tools/linkemu.py")
        try #require(FileManager.default.fileExists(atPath: script.path), "linkemu.py at \(script.path)")
        let lab = try NetworkLab.emulated(delayMs: 60, rate: "20mbit", tag: "\(getpid() % 10000)", script: script)
        defer { lab.tearDown() }
        let result = try connectionTest(in: lab)
        let median = try #require((result["rttMs"] as? [String: Any])?["median"] as? Double)
        #expect(abs(median - 120) <= 30, "median round trip \(median) ms over 2 × 60 ms of delay")
    }
}
