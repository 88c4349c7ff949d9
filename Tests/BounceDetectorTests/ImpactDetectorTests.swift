import Foundation
import Testing
@testable import BounceDetector

@Suite("Impact detector")
struct ImpactDetectorTests {
    /// Runs a detector (`tune`d, then handed to `observe` to watch it) over `samples` in chunks of `chunk` frames and
    /// returns what it reports.
    private func detect(_ samples: [Float], format: AudioFormat = AudioFormat(sampleRate: 48000, channels: 1),
                        chunk: Int = 480, tune: (inout DetectorParameters) -> Void = { _ in },
                        observe: (ImpactDetector) -> Void = { _ in }) throws -> [Impact] {
        let detector = try ImpactDetector(format: format, tune: tune)
        observe(detector)
        var impacts: [Impact] = []
        samples.withUnsafeBufferPointer { all in
            var start = 0
            let step = max(1, chunk) * format.channels
            while start < all.count {
                let end = min(all.count, start + step)
                detector.process(UnsafeBufferPointer(rebasing: all[start..<end])) { impacts.append($0) }
                start = end
            }
        }
        detector.finish { impacts.append($0) }
        return impacts
    }

    @Test("one impact gives one event at its first sample, within a few samples")
    func singleImpact() throws {
        let onset = 0.5
        let scene = ImpactSignals.scene(seconds: 1, rate: 48000, events: [(onset, ImpactSignals.impact(table: true, rate: 48000))])
        let impacts = try detect(scene)
        #expect(impacts.count == 1)
        let frame = try #require(impacts.first).frame
        #expect(abs(frame - 24000) <= 3, "onset at frame \(frame), expected 24000")
        #expect(impacts.first?.kind == .table)
        #expect((impacts.first?.confidence ?? 0) > 0.3)
    }

    @Test("two impacts 40 ms apart are two events")
    func closeImpacts() throws {
        let ball = ImpactSignals.impact(table: true, rate: 48000)
        let scene = ImpactSignals.scene(seconds: 1, rate: 48000, events: [(0.5, ball), (0.54, ball)])
        let frames = try detect(scene).map(\.frame)
        #expect(frames.count == 2)
        #expect(frames.count == 2 && abs(frames[0] - 24000) <= 3 && abs(frames[1] - 25920) <= 3)
    }

    @Test("a racket hit is classified as racket, a table bounce as table")
    func kinds() throws {
        let scene = ImpactSignals.scene(seconds: 1.2, rate: 48000, events: [
            (0.4, ImpactSignals.impact(table: false, rate: 48000)), (0.8, ImpactSignals.impact(table: true, rate: 48000)),
        ])
        #expect(try detect(scene).map(\.kind) == [.racket, .table])
    }

    @Test("a candidate that is no abrupt onset does not hold off a ball 12 ms after it")
    func nonImpactReleasesRefractory() throws {
        // The room's noise steps up by 8 dB at 0.5 s (a crowd's roar, a near talker): the flux triggers, but the
        // rise is no impact's attack and is rejected. A ball follows 12 ms later, inside the 25 ms refractory.
        let rate = 48000
        var random = TestNoise(seed: 9)
        var scene = (0..<rate).map { i in (i < rate / 2 ? 0.01 : 0.025) * random.next() }
        let ballStart = Int(0.512 * Double(rate))
        for (i, x) in ImpactSignals.impact(table: true, rate: rate).enumerated() { scene[ballStart + i] += x }
        func frames(release: Bool, stronger: Float = 0) throws -> [Int64] {
            let detector = try ImpactDetector(format: AudioFormat(sampleRate: rate, channels: 1)) {
                $0.releaseAfterNonImpact = release
                $0.strongerOnsetRatio = stronger
            }
            var found: [Int64] = []
            scene.withUnsafeBufferPointer { detector.process($0) { found.append($0.frame) } }
            detector.finish { found.append($0.frame) }
            return found
        }
        let released = try frames(release: true)
        // Within 1 ms: over the louder room the refiner loses the ramp's first samples (this test is about the
        // refractory, the single-impact test about timing).
        #expect(released.count == 1 && abs((released.first ?? 0) - Int64(ballStart)) <= 48, "\(released)")
        #expect(try frames(release: false).isEmpty, "held off by the step's refractory")
        // The ball's onset is far stronger than the step's: the stronger-onset rule alone finds it too.
        #expect(try frames(release: false, stronger: 3).count == 1)
    }

    @Test("a hand clap is rejected, not reported")
    func clapRejected() throws {
        let scene = ImpactSignals.scene(seconds: 1, rate: 48000, events: [(0.5, ImpactSignals.clap(rate: 48000))])
        #expect(try detect(scene).isEmpty)
    }

    @Test("""
        a sound 15 dB louder than a run's last bounce, where its next bounce is due, is none of the run's bounces (a \
        ball keeps only part of its speed): not due, judged on its own; without the rule it was due (a clap's echo and \
        the next clap, 90 and 180 ms apart, kept a run of claps going)
        """)
    func louderBreaksRun() throws {
        let rate = 48000
        let scene = ImpactSignals.scene(seconds: 1.5, rate: rate, events: [
            (0.5, ImpactSignals.impact(table: true, rate: rate, amplitude: 0.05)),
            (0.7, ImpactSignals.impact(table: true, rate: rate, amplitude: 0.04)),
            (0.87, ImpactSignals.impact(table: true, rate: rate, amplitude: 0.22)),
        ])
        func dueAtLoud(_ tune: (inout DetectorParameters) -> Void) throws -> Bool? {
            var due: Bool?
            _ = try detect(scene, tune: tune) { detector in
                detector.candidateObserver = { onset, _, _, _, decision in
                    if abs(Double(onset) / Double(rate) - 0.87) < 0.002 { due = decision.due }
                }
            }
            return due
        }
        #expect(try dueAtLoud { _ in } == false)
        #expect(try dueAtLoud { $0.runLouderBreaksDB = 0 } == true)
    }

    @Test("ringing modes are coherent lines from hop to hop; a noise burst is not")
    func lineCoherence() throws {
        func coherence(of sound: [Float]) throws -> Float {
            let detector = try ImpactDetector(format: AudioFormat(sampleRate: 48000, channels: 1))
            var values: [Float] = []
            detector.candidateObserver = { _, features, _, _, _ in values.append(features.lineCoherence) }
            let scene = ImpactSignals.scene(seconds: 1, rate: 48000, events: [(0.5, sound)])
            scene.withUnsafeBufferPointer { detector.process($0) { _ in } }
            return try #require(values.first)
        }
        let ball = try coherence(of: ImpactSignals.impact(table: true, rate: 48000))
        let clap = try coherence(of: ImpactSignals.clap(rate: 48000))
        #expect(ball > 0.9, "ball \(ball)")
        #expect(clap < 0.6, "clap \(clap)")
    }

    @Test("at 44.1 kHz the features read no sample newer than the decision point (none left over from a ring ago)")
    func featuresAt44k() throws {
        func features(withOldSound: Bool) throws -> ImpactFeatures {
            let rate = 44100
            let detector = try ImpactDetector(format: AudioFormat(sampleRate: rate, channels: 1))
            var seen: [ImpactFeatures] = []
            detector.candidateObserver = { onset, features, _, _, _ in if onset > 20000 { seen.append(features) } }
            let onset = 22046  // its decision point (onset + 352) falls 2 samples before a hop end: 30 samples short of 1.5 frames
            var events: [(Double, [Float])] = [(Double(onset) / Double(rate), ImpactSignals.impact(table: true, rate: rate))]
            if withOldSound {
                // A loud tone that ends well before the impact, placed where the ring's stale slots would be read
                // (one ring capacity before the samples just after the decision point).
                let capacity = 4096
                let start = onset - capacity + detector.parameters.decisionDelay
                let tone = (0..<64).map { Float(0.5 * sin(Double($0) * 0.7)) }
                events.append((Double(start) / Double(rate), tone))
            }
            let scene = ImpactSignals.scene(seconds: 1, rate: rate, events: events)
            scene.withUnsafeBufferPointer { detector.process($0) { _ in } }
            return try #require(seen.first)
        }
        let clean = try features(withOldSound: false)
        let disturbed = try features(withOldSound: true)
        #expect(abs(clean.lineCoherence - disturbed.lineCoherence) < 0.02)
        #expect(abs(clean.ringingContrastDB - disturbed.ringingContrastDB) < 0.5)
    }

    @Test("codec pre-echo that trips the trigger ahead of the impact does not move the onset")
    func preEcho() throws {
        // Noise ~14 dB under the impact, filling the 5 ms before it, as a transform codec smears it.
        var noise = TestNoise(seed: 3)
        let preEcho = (0..<240).map { i in 0.06 * Float(i) / 240 * noise.next() }
        let ball = ImpactSignals.impact(table: true, rate: 48000)
        let scene = ImpactSignals.scene(seconds: 1, rate: 48000, events: [(0.495, preEcho), (0.5, ball)])
        let impacts = try detect(scene)
        #expect(impacts.count == 1)
        let frame = try #require(impacts.first).frame
        #expect(abs(frame - 24000) <= 24, "onset at frame \(frame), expected 24000")
    }

    @Test("silence and steady noise give nothing")
    func silenceAndNoise() throws {
        #expect(try detect([Float](repeating: 0, count: 48000)).isEmpty)
        #expect(try detect(ImpactSignals.scene(seconds: 2, rate: 48000, noise: 0.1, events: [])).isEmpty)
    }

    @Test("a NaN or infinite sample counts as silence: the impact after it is still heard, at the same sample")
    func nonFiniteSamples() throws {
        let clean = ImpactSignals.scene(seconds: 1.5, rate: 48000, events: [(1.0, ImpactSignals.impact(table: true, rate: 48000))])
        var corrupt = clean
        corrupt[20000] = .nan
        corrupt[30000] = .infinity
        corrupt[30001] = -.infinity
        let expected = try detect(clean).map(\.frame)
        #expect(expected.count == 1)
        #expect(try detect(corrupt).map(\.frame) == expected)
        // Stereo: one bad channel silences that frame only.
        var stereo: [Float] = []
        for x in corrupt { stereo += [x, x] }
        stereo[2 * 25000 + 1] = .nan
        #expect(try detect(stereo, format: AudioFormat(sampleRate: 48000, channels: 2)).map(\.frame) == expected)
    }

    @Test("an impact split across chunk boundaries gives the same result as one chunk", arguments: [1, 7, 64, 333, 48000])
    func chunking(chunk: Int) throws {
        let scene = ImpactSignals.scene(seconds: 1, rate: 48000, events: [
            (0.3, ImpactSignals.impact(table: true, rate: 48000)), (0.7, ImpactSignals.impact(table: false, rate: 48000)),
        ])
        let whole = try detect(scene, chunk: scene.count)
        #expect(whole.count == 2)
        #expect(try detect(scene, chunk: chunk) == whole)
    }

    @Test("44.1 kHz input is timed in its own samples")
    func rate44k() throws {
        let scene = ImpactSignals.scene(seconds: 1, rate: 44100, events: [(0.5, ImpactSignals.impact(table: true, rate: 44100))])
        let impacts = try detect(scene, format: AudioFormat(sampleRate: 44100, channels: 1))
        #expect(impacts.count == 1)
        #expect(abs((impacts.first?.frame ?? 0) - 22050) <= 3)
        #expect(abs((impacts.first?.time ?? 0) - 0.5) < 0.0001)
    }

    @Test("16 kHz input still detects the impact")
    func rate16k() throws {
        let scene = ImpactSignals.scene(seconds: 1, rate: 16000, events: [(0.5, ImpactSignals.impact(table: false, rate: 16000))])
        let impacts = try detect(scene, format: AudioFormat(sampleRate: 16000, channels: 1))
        #expect(impacts.count == 1)
        #expect(abs((impacts.first?.frame ?? 0) - 8000) <= 3)
    }

    @Test("stereo input is mixed down and timed in frames")
    func stereo() throws {
        let mono = ImpactSignals.scene(seconds: 1, rate: 48000, events: [(0.5, ImpactSignals.impact(table: true, rate: 48000))])
        let stereo = mono.flatMap { [$0, $0 * 0.5] }
        let impacts = try detect(stereo, format: AudioFormat(sampleRate: 48000, channels: 2))
        #expect(impacts.count == 1)
        #expect(abs((impacts.first?.frame ?? 0) - 24000) <= 3)
    }

    @Test("an empty chunk is a no-op and a half frame at the end of a stereo chunk is ignored")
    func emptyAndRaggedChunks() throws {
        let detector = try ImpactDetector(format: AudioFormat(sampleRate: 48000, channels: 2))
        var count = 0
        detector.process(UnsafeBufferPointer(start: nil, count: 0)) { _ in count += 1 }
        [Float](repeating: 0, count: 3).withUnsafeBufferPointer { detector.process($0) { _ in count += 1 } }
        #expect(count == 0)
    }

    @Test("the event is reported at most 10 ms of audio after its onset")
    func reportLatency() throws {
        let detector = try ImpactDetector(format: AudioFormat(sampleRate: 48000, channels: 1))
        let scene = ImpactSignals.scene(seconds: 1, rate: 48000, events: [(0.5, ImpactSignals.impact(table: true, rate: 48000))])
        var fed = 0
        var reportedAfter: Int?
        scene.withUnsafeBufferPointer { all in
            // Feed 1 ms at a time and note how much audio had arrived when the event came.
            while fed < all.count, reportedAfter == nil {
                let end = min(all.count, fed + 48)
                detector.process(UnsafeBufferPointer(rebasing: all[fed..<end])) { _ in reportedAfter = end }
                fed = end
            }
        }
        let after = try #require(reportedAfter)
        #expect(after - 24000 <= 480, "reported \(Double(after - 24000) / 48) ms after the onset")
    }

    @Test("rates below 8 kHz and odd channel counts are rejected with a message")
    func badFormats() {
        #expect(throws: AudioError.self) { try ImpactDetector(format: AudioFormat(sampleRate: 4000, channels: 1)) }
        #expect(throws: AudioError.self) { try ImpactDetector(format: AudioFormat(sampleRate: 48000, channels: 0)) }
    }
}
