import Foundation
import Testing

/// Runs the built `pongd` binary, as a user would.
@Suite("pongd detect")
struct DetectCommandTests {
    private func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try ToolRun.run(ToolRun.pongd().path, arguments)
    }

    private func temporaryFile(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pongd-\(UUID().uuidString)-\(name)")
        try Data(bytes).write(to: url)
        return url
    }

    /// 16-bit mono 48 kHz WAV: silence with a sharp 4 kHz burst at each of `onsets` seconds.
    private func clicksWAV(onsets: [Double], seconds: Double) -> [UInt8] {
        var pcm = [Int16](repeating: 0, count: Int(seconds * 48000))
        for onset in onsets {
            let start = Int(onset * 48000)
            for i in 0..<480 where start + i < pcm.count {
                let envelope = exp(-Double(i) / 96)
                pcm[start + i] = Int16(20000 * envelope * sin(2 * .pi * 4000 * Double(i) / 48000))
            }
        }
        let data = pcm.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) }
        func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
        let fmt = le(UInt16(1)) + le(UInt16(1)) + le(UInt32(48000)) + le(UInt32(96000)) + le(UInt16(2)) + le(UInt16(16))
        let body = Array("WAVEfmt ".utf8) + le(UInt32(16)) + fmt + Array("data".utf8) + le(UInt32(data.count)) + data
        return Array("RIFF".utf8) + le(UInt32(body.count)) + body
    }

    @Test("a corrupt file exits with status 1 and one line on stderr naming the problem")
    func corruptFile() throws {
        let url = try temporaryFile("bad.wav", Array("RIFF\u{0}\u{0}\u{0}\u{0}JUNKJUNK".utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try run(["detect", url.path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("RIFF form is not WAVE"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("a missing file exits 1 with a message")
    func missingFile() throws {
        let result = try run(["detect", "/nonexistent/rally.wav"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/nonexistent/rally.wav"))
    }

    @Test("a WAV with two bursts prints the CSV header and both onsets to the millisecond grid")
    func csvOutput() throws {
        let url = try temporaryFile("clicks.wav", clicksWAV(onsets: [0.5, 1.25], seconds: 2))
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try run(["detect", url.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "time,kind,confidence")
        let times = lines.dropFirst().compactMap { Double($0.split(separator: ",")[0]) }
        #expect(times.count == 2)
        #expect(zip(times, [0.5, 1.25]).allSatisfy { abs($0 - $1) < 0.005 })
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",")[0].split(separator: ".").last?.count == 4 })

        let json = try run(["detect", url.path, "--format", "json"])
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(parsed?.count == 2)
        #expect(parsed?.first?["kind"] as? String == "table", "a 4 kHz ringing burst is bright: a table bounce")
    }

    @Test("the diagnostic CSVs are written, and one that cannot be written is an error, not silence")
    func diagnosticFiles() throws {
        let url = try temporaryFile("clicks.wav", clicksWAV(onsets: [0.5], seconds: 1))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pongd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: url)
            try? FileManager.default.removeItem(at: folder)
        }
        let candidates = folder.appendingPathComponent("cand.csv").path
        let hops = folder.appendingPathComponent("hops.csv").path
        let written = try run(["detect", url.path, "--candidates", candidates, "--hops", hops])
        #expect(written.status == 0, "\(written.stderr)")
        let candidateLines = try String(contentsOfFile: candidates, encoding: .utf8).split(separator: "\n")
        #expect(candidateLines.first?.hasPrefix("time,flux,") == true)
        #expect(candidateLines.count >= 2)
        // Every row as wide as the header; `timed_by` names the rule that placed the onset, and the bin-by-bin rise
        // and the stream's typical attack (what the learned recovery reads and is gated by) follow it.
        let header = candidateLines.first.map { $0.split(separator: ",", omittingEmptySubsequences: false) } ?? []
        #expect(header.suffix(7) == ["timed_by", "rise_median_db", "rise_q25_db", "rise_share6", "rise_share3",
                                     "rise_mean_db", "typical_attack_db"])
        let timedBy = header.firstIndex(of: "timed_by") ?? 0
        let timings: Set<Substring> = ["edge", "ring", "reanchored", "retimed", "clipretimed", "ringerror"]
        for row in candidateLines.dropFirst() {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            #expect(fields.count == header.count, "\(row)")
            #expect(fields.count > timedBy && timings.contains(fields[timedBy]), "\(row)")
        }
        let hopLines = try String(contentsOfFile: hops, encoding: .utf8).split(separator: "\n")
        #expect(hopLines.count > 100)

        let unwritable = folder.appendingPathComponent("missing/cand.csv").path
        let failed = try run(["detect", url.path, "--candidates", unwritable])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("cannot write \(unwritable)"))
    }

    @Test("""
        --tune: a misspelt key, a pair without a number or a value out of range is refused (status 64, the known keys \
        listed; a huge time or count once crashed the detector's set-up); a known one takes effect
        """)
    func tuning() throws {
        let url = try temporaryFile("two.wav", clicksWAV(onsets: [0.5, 0.8], seconds: 1.5))
        defer { try? FileManager.default.removeItem(at: url) }
        let misspelt = try run(["detect", url.path, "--tune", "applause=0,runlikethrid=2"])
        #expect(misspelt.status == 64 && misspelt.stdout.isEmpty)
        #expect(misspelt.stderr.contains("unknown key 'runlikethrid'") && misspelt.stderr.contains(" runlikethird "))
        let noNumber = try run(["detect", url.path, "--tune", "applause"])
        #expect(noNumber.status == 64 && noNumber.stderr.contains("'applause' is not key=number"))
        for huge in ["run=1e300", "kmemory=1e30", "runonsetfit=-1e9"] {
            let refused = try run(["detect", url.path, "--tune", huge])
            #expect(refused.status == 64 && refused.stderr.contains("'\(huge)' is out of range"), "\(refused.stderr)")
        }
        // A nonsense fit length within the range (negative) is clamped by the predictor, not a crash.
        let negative = try run(["detect", url.path, "--tune", "runonsetfit=-5"])
        #expect(negative.status == 0, "\(negative.stderr)")
        // An attack gate (`attack`, `afloor`, dB) no burst reaches: nothing is reported.
        let both = try run(["detect", url.path])
        #expect(both.stdout.split(separator: "\n").count == 3, "\(both.stdout)")
        let gated = try run(["detect", url.path, "--tune", "attack=200,afloor=200"])
        #expect(gated.status == 0 && gated.stdout == "time,kind,confidence\n", "\(gated.stdout)")
    }

    @Test("every --tune key is named in docs/DETECTOR.md, where its parameter is explained (a retune is a command)")
    func everyTuningKeyDocumented() throws {
        let refused = try run(["detect", "/dev/null", "--tune", "nosuchkey=1"])
        let known = refused.stderr.components(separatedBy: "(known: ").last?.split(separator: ")").first ?? ""
        let keys = known.split(separator: " ").map(String.init)
        #expect(keys.count > 200 && keys.contains("kshown"), "\(refused.stderr)")
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let detector = try String(contentsOf: repository.appendingPathComponent("docs/DETECTOR.md"), encoding: .utf8)
        let undocumented = keys.filter { !detector.contains("`\($0)`") }
        #expect(undocumented.isEmpty, "not in docs/DETECTOR.md: \(undocumented)")
    }
}
