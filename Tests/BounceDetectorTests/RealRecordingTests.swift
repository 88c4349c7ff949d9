import Foundation
import Testing
@testable import BounceDetector

/// The detector on real balls (`RealRecordings`): single impacts over a 30 dB range of levels, a rally, and a dropped
/// ball bouncing ever faster and softer, each impact found once, within half a millisecond of its start, of the
/// right kind.
@Suite("Real ball recordings", .enabled(if: RealRecordings.available, RealRecordings.missing))
struct RealRecordingTests {
    /// A scene at the clips' rate: faint white noise (−66 dBFS RMS) with each clip at `gain` from its onset time.
    private func scene(seconds: Double, rate: Int, events: [(time: Double, clip: RealRecordings.Clip, gain: Float)])
        -> (samples: [Float], onsets: [Int])
    {
        var noise = TestNoise(seed: 11)
        var samples = (0..<Int(seconds * Double(rate))).map { _ in 0.00086 * noise.next() }
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

    private func detect(_ samples: [Float], rate: Int) throws -> [Impact] {
        let detector = try ImpactDetector(format: AudioFormat(sampleRate: rate, channels: 1))
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

    @Test("a real table bounce and a real racket hit, each alone at 0, −15 and −30 dB: found once, to 0.5 ms, right kind",
          arguments: [true, false], [Float(0), -15, -30])
    func single(table: Bool, levelDB: Float) throws {
        let clip = try RealRecordings.clip(table: table)
        let (samples, onsets) = scene(seconds: 1, rate: clip.rate,
                                      events: [(0.5, clip, pow(10, levelDB / 20))])
        let impacts = try detect(samples, rate: clip.rate)
        #expect(impacts.count == 1, "\(impacts)")
        let impact = try #require(impacts.first)
        #expect(abs(impact.frame - Int64(onsets[0])) <= Int64(clip.rate / 2000),
                "onset at \(impact.frame), the impact starts at \(onsets[0])")
        #expect(impact.kind == (table ? .table : .racket))
    }

    @Test("a rally of real hits and bounces 0.35–0.55 s apart: every one found to 1 ms, of its kind")
    func rally() throws {
        let table = try RealRecordings.clip(table: true), racket = try RealRecordings.clip(table: false)
        var noise = TestNoise(seed: 5)
        var time = 0.5
        var events: [(time: Double, clip: RealRecordings.Clip, gain: Float)] = []
        for shot in 0..<16 {
            events.append((time, shot.isMultiple(of: 2) ? racket : table, 1))
            time += 0.45 + 0.1 * Double(noise.next())
        }
        let (samples, onsets) = scene(seconds: time + 0.5, rate: table.rate, events: events)
        let impacts = try detect(samples, rate: table.rate)
        #expect(impacts.count == onsets.count)
        for (shot, onset) in onsets.enumerated() {
            let found = impacts.first { abs($0.frame - Int64(onset)) <= Int64(table.rate / 1000) }
            #expect(found?.kind == (shot.isMultiple(of: 2) ? .racket : .table), "shot \(shot) at \(onset): \(String(describing: found))")
        }
    }

    @Test("a dropped ball: 15 real bounces from 190 ms apart, each gap and each bounce ×0.9, every one found to 2 ms")
    func droppedBall() throws {
        let clip = try RealRecordings.clip(table: true)
        var events: [(time: Double, clip: RealRecordings.Clip, gain: Float)] = []
        var time = 0.5, gap = 0.19, gain: Float = 1
        for _ in 0..<15 {
            events.append((time, clip, gain))
            time += gap
            gap *= 0.9
            gain *= 0.9
        }
        let (samples, onsets) = scene(seconds: time + 0.5, rate: clip.rate, events: events)
        let impacts = try detect(samples, rate: clip.rate)
        let missed = onsets.filter { onset in !impacts.contains { abs($0.frame - Int64(onset)) <= Int64(clip.rate / 500) } }
        #expect(missed.isEmpty, "missed bounces at \(missed) of \(onsets)")
        #expect(impacts.count == onsets.count)
    }
}
