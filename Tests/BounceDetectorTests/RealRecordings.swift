import Foundation
import Testing
@testable import BounceDetector

/// Real recordings of a table-tennis ball from Debian's `csmash-data` (Cannon Smash, GPL): read at run time from
/// the installed package, never copied into the repository. `.ci/run` installs it; on a machine without it the
/// tests that need it are skipped, and say so.
enum RealRecordings {
    /// White noise (uniform, peak `noisePeak`, from `seed`) with every event's clip added from its time at its gain;
    /// and where each event's impact starts (its clip's onset).
    static func scene(seconds: Double, rate: Int, events: [(time: Double, clip: Clip, gain: Float)],
                      noisePeak: Float = 0.00086, seed: UInt64) -> (samples: [Float], onsets: [Int]) {
        var noise = TestNoise(seed: seed)
        var samples = (0..<Int(seconds * Double(rate))).map { _ in noisePeak * noise.next() }
        var onsets: [Int] = []
        for event in events {
            let start = Int((event.time * Double(rate)).rounded())
            for (i, x) in event.clip.samples.enumerated() where start + i < samples.count {
                samples[start + i] += event.gain * x
            }
            onsets.append(start + event.clip.onset)
        }
        return (samples, onsets)
    }

    /// A ball dropped on the table: `count` bounces of `clip` from `start` s, the first `firstGap` apart, each gap ×
    /// `gapRatio` and each bounce × `gainRatio`; and when the last bounce starts plus a gap.
    static func droppedBall(_ clip: Clip, start: Double = 0.5, count: Int, firstGap: Double, gapRatio: Double,
                            gainRatio: Float) -> (events: [(time: Double, clip: Clip, gain: Float)], end: Double) {
        var events: [(time: Double, clip: Clip, gain: Float)] = []
        var time = start, gap = firstGap, gain: Float = 1
        for _ in 0..<count {
            events.append((time, clip, gain))
            time += gap
            gap *= gapRatio
            gain *= gainRatio
        }
        return (events, time)
    }

    /// What a detector (`classifier`, `tune`) reports in mono `samples` at `rate`, fed 441 frames at a time.
    static func detect(_ samples: [Float], rate: Int, classifier: ImpactClassifier = ImpactClassifier(),
                       tune: (inout DetectorParameters) -> Void = { _ in }) throws -> [Impact] {
        let detector = try ImpactDetector(format: AudioFormat(sampleRate: rate, channels: 1), classifier: classifier,
                                          tune: tune)
        var impacts: [Impact] = []
        samples.withUnsafeBufferPointer { all in
            for start in stride(from: 0, to: all.count, by: 441) {
                detector.process(UnsafeBufferPointer(rebasing: all[start..<min(all.count, start + 441)])) {
                    impacts.append($0)
                }
            }
        }
        detector.finish { impacts.append($0) }
        return impacts
    }

    static let folder = "/usr/share/games/csmash/wav"
    /// Why a test is skipped when the package is missing.
    static let missing: Comment = "csmash-data is not installed (apt-get install csmash-data): no real ball recordings"
    /// Whether both recordings are installed.
    static var available: Bool {
        ["table.wav", "racket.wav"].allSatisfy { FileManager.default.fileExists(atPath: "\(folder)/\($0)") }
    }

    /// A real impact: its samples (mono, 44.1 kHz) and where the impact starts in them.
    struct Clip {
        let samples: [Float]
        let rate: Int
        /// The clip's first ~1 ms is a low-frequency lead-in 30–40 dB under the impact; the impact starts where the
        /// 700 Hz high-passed signal first reaches a tenth of its peak (measured once with scipy: table 47, racket 48
        /// samples at 44.1 kHz). Labels in `Benchmarks/Scripts/real_corpus.py` use the same rule.
        let onset: Int
    }

    /// The ball on the table (`table`) or on a racket.
    static func clip(table: Bool) throws -> Clip {
        var source = try AudioFile.open(path: "\(folder)/\(table ? "table" : "racket").wav")
        let audio = try source.readAll()
        let channels = audio.format.channels
        let mono = stride(from: 0, to: audio.samples.count - channels + 1, by: channels).map { start in
            audio.samples[start..<(start + channels)].reduce(0, +) / Float(channels)
        }
        return Clip(samples: mono, rate: audio.format.sampleRate, onset: table ? 47 : 48)
    }
}
