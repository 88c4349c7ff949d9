import Foundation
import Testing
@testable import BounceDetector

/// A real recording of people clapping: Debian's `foobillardplus-data` (FooBillard++, GPL-2), `applause.wav`, a
/// small group near the microphone (4.9 s, 44.1 kHz stereo), read where the package installs it, never copied into
/// the repository (Benchmarks/Data/applause/README.md: every recording looked at, and why this one).
enum RealApplause {
    static let path = "/usr/share/games/foobillardplus/data/applause.wav"
    /// Why the tests are skipped when a package is missing.
    static let missing: Comment = """
        foobillardplus-data or csmash-data is not installed (apt-get install foobillardplus-data csmash-data): \
        no real applause or no real ball recordings
        """
    /// Whether the applause and both ball recordings are installed.
    static var available: Bool { FileManager.default.fileExists(atPath: path) && RealRecordings.available }

    /// The applause, mono, with its peak at `peak`.
    static func recording(peak: Float) throws -> RealRecordings.Clip {
        var source = try AudioFile.open(path: path)
        let audio = try source.readAll()
        let channels = audio.format.channels
        let mono = stride(from: 0, to: audio.samples.count - channels + 1, by: channels).map { start in
            audio.samples[start..<(start + channels)].reduce(0, +) / Float(channels)
        }
        let scale = peak / (mono.map(abs).max() ?? 1)
        return RealRecordings.Clip(samples: mono.map { $0 * scale }, rate: audio.format.sampleRate, onset: 0)
    }
}

/// The applause rule (`ApplauseTrain`, docs/DETECTOR.md "Applause is a rhythm") on real applause among real balls:
/// it must never cost a ball, and must take some of the applause away. (It takes far less of a real group's
/// applause than of gen_corpus's synthetic claps: docs/DETECTOR.md says why.)
@Suite("Real applause", .enabled(if: RealApplause.available, RealApplause.missing))
struct RealApplauseTests {
    private typealias Event = (time: Double, clip: RealRecordings.Clip, gain: Float)

    /// Faint white noise (−66 dBFS RMS) with every event added from its time; and where each event's impact starts.
    private func scene(seconds: Double, rate: Int, events: [Event]) -> (samples: [Float], onsets: [Int]) {
        RealRecordings.scene(seconds: seconds, rate: rate, events: events, seed: 17)
    }

    /// The detections' frames, with the applause rule on or off.
    private func detect(_ samples: [Float], rate: Int, applause: Bool) throws -> [Int64] {
        try RealRecordings.detect(samples, rate: rate) { if !applause { $0.applauseTolerance = 0 } }.map(\.frame)
    }

    @Test("""
        three rallies of real strokes, the real applause between each two (at the ball's peak and 10 dB under): \
        every stroke found to 2 ms with the rule on, and the rule takes away at least a tenth of the applause's reports
        """, arguments: [Float(0), -10])
    func applauseBetweenRallies(levelDB: Float) throws {
        let table = try RealRecordings.clip(table: true), racket = try RealRecordings.clip(table: false)
        let rate = table.rate
        let applause = try RealApplause.recording(peak: (table.samples.map(abs).max() ?? 1) * pow(10, levelDB / 20))
        let length = Double(applause.samples.count) / Double(rate)
        var noise = TestNoise(seed: 5)
        var events: [Event] = [], strokes: [Int] = [], spans: [ClosedRange<Int64>] = []
        var time = 0.5
        for rally in 0..<3 {
            // Serve, its bounce 180 ms on, the far bounce 320 ms later, then six shots 0.35–0.55 s apart.
            var times = [time, time + 0.18, time + 0.5], hits = [true, false, false]
            for shot in 0..<6 {
                times.append(times.last! + 0.45 + 0.1 * Double(noise.next()))
                hits.append(shot.isMultiple(of: 2))
            }
            for (t, hit) in zip(times, hits) {
                strokes.append(events.count)
                events.append((t, hit ? racket : table, 1))
            }
            time = times.last! + 0.6
            if rally < 2 {
                spans.append(Int64(time * Double(rate))...Int64((time + length) * Double(rate)))
                events.append((time, applause, 1))
                time += length + 0.5
            }
        }
        let (samples, onsets) = scene(seconds: time + 0.5, rate: rate, events: events)
        let on = try detect(samples, rate: rate, applause: true), off = try detect(samples, rate: rate, applause: false)
        for stroke in strokes {
            let onset = Int64(onsets[stroke])
            #expect(on.contains { abs($0 - onset) <= Int64(rate / 500) }, "stroke at \(Double(onset) / Double(rate)) s lost")
        }
        func inApplause(_ frames: [Int64]) -> Int { frames.filter { frame in spans.contains { $0.contains(frame) } }.count }
        let kept = inApplause(on), all = inApplause(off)
        #expect(all >= 20, "without the rule the applause is reported \(all) times")
        #expect(Double(kept) <= 0.9 * Double(all), "the rule keeps \(kept) of the applause's \(all) reports")
    }

    @Test("a ball dropped on the table 0.1 s after the real applause ends: every bounce found to 2 ms with the rule on")
    func droppedBallAfterApplause() throws {
        let table = try RealRecordings.clip(table: true)
        let rate = table.rate
        let applause = try RealApplause.recording(peak: table.samples.map(abs).max() ?? 1)
        // Ten bounces from 0.2 s apart, each gap ×0.85 and each bounce −1.5 dB.
        let (drop, end) = RealRecordings.droppedBall(
            table, start: 0.5 + Double(applause.samples.count) / Double(rate) + 0.1, count: 10, firstGap: 0.2,
            gapRatio: 0.85, gainRatio: pow(10, -1.5 / 20))
        let (samples, onsets) = scene(seconds: end + 0.5, rate: rate, events: [(0.5, applause, 1)] + drop)
        let on = try detect(samples, rate: rate, applause: true)
        for onset in onsets.dropFirst().map(Int64.init) {
            #expect(on.contains { abs($0 - onset) <= Int64(rate / 500) }, "bounce at \(Double(onset) / Double(rate)) s lost")
        }
    }
}
