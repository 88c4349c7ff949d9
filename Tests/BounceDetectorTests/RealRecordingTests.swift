import Foundation
import Testing
@testable import BounceDetector

/// The detector on real balls (`RealRecordings`): single impacts over a 30 dB range of levels, a rally, and a dropped
/// ball bouncing ever faster and softer, each impact found once, within half a millisecond of its start, of the
/// right kind.
@Suite("Real ball recordings", .enabled(if: RealRecordings.available, RealRecordings.missing))
struct RealRecordingTests {
    /// A scene at the clips' rate: faint white noise (uniform, peak `noisePeak`: −66 dBFS RMS by default) with each
    /// clip at `gain` from its onset time.
    /// `shots` impacts from 0.5 s, racket first, then table and racket in turn, 0.4–0.5 s apart (drawn from `noise`),
    /// and the time after the last.
    private func alternatingRally(shots: Int, racket: RealRecordings.Clip, table: RealRecordings.Clip,
                                  noise: inout TestNoise)
        -> (events: [(time: Double, clip: RealRecordings.Clip, gain: Float)], end: Double) {
        var time = 0.5
        var events: [(time: Double, clip: RealRecordings.Clip, gain: Float)] = []
        for shot in 0..<shots {
            events.append((time, shot.isMultiple(of: 2) ? racket : table, 1))
            time += 0.45 + 0.1 * Double(noise.next())
        }
        return (events, time)
    }

    private func scene(seconds: Double, rate: Int, events: [(time: Double, clip: RealRecordings.Clip, gain: Float)],
                       noisePeak: Float = 0.00086) -> (samples: [Float], onsets: [Int]) {
        RealRecordings.scene(seconds: seconds, rate: rate, events: events, noisePeak: noisePeak, seed: 11)
    }

    @Test("a real table bounce and a real racket hit, each alone at 0, −15 and −30 dB: found once, to 0.5 ms, right kind",
          arguments: [true, false], [Float(0), -15, -30])
    func single(table: Bool, levelDB: Float) throws {
        let clip = try RealRecordings.clip(table: table)
        let (samples, onsets) = scene(seconds: 1, rate: clip.rate,
                                      events: [(0.5, clip, pow(10, levelDB / 20))])
        let impacts = try RealRecordings.detect(samples, rate: clip.rate)
        #expect(impacts.count == 1, "\(impacts)")
        let impact = try #require(impacts.first)
        #expect(abs(impact.frame - Int64(onsets[0])) <= Int64(clip.rate / 2000),
                "onset at \(impact.frame), the impact starts at \(onsets[0])")
        #expect(impact.kind == (table ? .table : .racket))
    }

    @Test("a real ball's onset frame has valleys between its resonances, a clap's noise fills the band: with the flatness rule on, the clap alone is rejected")
    func flatnessTellsClaps() throws {
        let table = try RealRecordings.clip(table: true), racket = try RealRecordings.clip(table: false)
        let rate = table.rate
        let clap = RealRecordings.Clip(samples: ImpactSignals.clap(rate: rate, amplitude: 0.5), rate: rate, onset: 0)
        let (samples, onsets) = scene(seconds: 2, rate: rate, events: [(0.5, table, 1), (1.0, clap, 1), (1.5, racket, 1)])
        let limit: Float = -3.8  // the rule is off by default (docs/DETECTOR.md): on here
        let detector = try ImpactDetector(format: AudioFormat(sampleRate: rate, channels: 1)) { $0.clapFlatnessDB = limit }
        var seen: [(Int64, ImpactFeatures)] = []
        detector.candidateObserver = { onset, features, _, _, _ in seen.append((onset, features)) }
        var impacts: [Impact] = []
        samples.withUnsafeBufferPointer { all in
            for start in stride(from: 0, to: all.count, by: 441) {
                detector.process(UnsafeBufferPointer(rebasing: all[start..<min(all.count, start + 441)])) { impacts.append($0) }
            }
        }
        for (index, onset) in onsets.enumerated() {
            let candidate = try #require(seen.first { abs($0.0 - Int64(onset)) < Int64(rate / 200) }, "candidate \(index)")
            #expect(candidate.1.attackDB >= 20, "clear: \(candidate.1.attackDB) dB")
            if index == 1 {
                #expect(candidate.1.flatnessDB > limit, "the clap: \(candidate.1.flatnessDB) dB")
            } else {
                #expect(candidate.1.flatnessDB < limit - 3, "a real ball: \(candidate.1.flatnessDB) dB")
            }
        }
        #expect(impacts.map { abs($0.frame - Int64(onsets[1])) < Int64(rate / 200) } == [false, false], "\(impacts)")
    }

    @Test("a rally of real hits and bounces 0.35–0.55 s apart: every one found to 1 ms, of its kind")
    func rally() throws {
        let table = try RealRecordings.clip(table: true), racket = try RealRecordings.clip(table: false)
        var noise = TestNoise(seed: 5)
        let (events, time) = alternatingRally(shots: 16, racket: racket, table: table, noise: &noise)
        let (samples, onsets) = scene(seconds: time + 0.5, rate: table.rate, events: events)
        let impacts = try RealRecordings.detect(samples, rate: table.rate)
        #expect(impacts.count == onsets.count)
        for (shot, onset) in onsets.enumerated() {
            let found = impacts.first { abs($0.frame - Int64(onset)) <= Int64(table.rate / 1000) }
            #expect(found?.kind == (shot.isMultiple(of: 2) ? .racket : .table), "shot \(shot) at \(onset): \(String(describing: found))")
        }
    }

    @Test("""
        csmash's recordings with their kinds exchanged (the racket's click as the table bounce): after one rally's \
        serve, every impact of the next is named by the stream's serves, not by timbre
        """)
    func kindsByServes() throws {
        let table = try RealRecordings.clip(table: true), racket = try RealRecordings.clip(table: false)
        var events: [(time: Double, clip: RealRecordings.Clip, gain: Float)] = []
        var isHit: [Bool] = []
        for start in [0.5, 5.5] {
            // Serve, the server's bounce 180 ms on, the far bounce 320 ms later, then four shots 0.6 s apart.
            var times = [start, start + 0.18, start + 0.5]
            var hits = [true, false, false]
            for shot in 0..<4 {
                times.append(times.last! + 0.6)
                hits.append(shot.isMultiple(of: 2))
            }
            for (time, hit) in zip(times, hits) { events.append((time, hit ? table : racket, 1)) }
            isHit += hits
        }
        let (samples, onsets) = scene(seconds: 10, rate: table.rate, events: events)
        func named(_ impacts: [Impact]) -> [ImpactKind?] {
            onsets.map { onset in impacts.first { abs($0.frame - Int64(onset)) <= Int64(table.rate / 1000) }?.kind }
        }
        let byServes = named(try RealRecordings.detect(samples, rate: table.rate))
        let byTimbre = named(try RealRecordings.detect(samples, rate: table.rate) { $0.kindPauseSeconds = 0 })
        let second = 7..<14
        #expect(second.allSatisfy { byServes[$0] == (isHit[$0] ? .racket : .table) }, "\(byServes)")
        #expect(second.allSatisfy { byTimbre[$0] != nil && byTimbre[$0] != (isHit[$0] ? .racket : .table) },
                "the timbre names every exchanged impact wrongly: \(byTimbre)")
    }

    @Test("a dropped ball: 15 real bounces from 190 ms apart, each gap and each bounce ×0.9, every one found to 2 ms")
    func droppedBall() throws {
        let clip = try RealRecordings.clip(table: true)
        let (events, end) = RealRecordings.droppedBall(
            clip, count: 15, firstGap: 0.19, gapRatio: 0.9, gainRatio: 0.9)
        let (samples, onsets) = scene(seconds: end + 0.5, rate: clip.rate, events: events)
        let impacts = try RealRecordings.detect(samples, rate: clip.rate)
        let missed = onsets.filter { onset in !impacts.contains { abs($0.frame - Int64(onset)) <= Int64(clip.rate / 500) } }
        #expect(missed.isEmpty, "missed bounces at \(missed) of \(onsets)")
        #expect(impacts.count == onsets.count)
    }

    @Test("""
        a dropped ball whose timbre no rule takes (every score and the clear rule off, no stream template): its \
        rejected bounces keep a bouncing ball's clock, so from the fourth on it is heard; without the rejected run, \
        none is
        """)
    func droppedBallNobodyHeard() throws {
        let clip = try RealRecordings.clip(table: true)
        let (events, end) = RealRecordings.droppedBall(
            clip, count: 15, firstGap: 0.19, gapRatio: 0.86, gainRatio: 0.9)
        let (samples, onsets) = scene(seconds: end + 0.5, rate: clip.rate, events: events)
        var deaf = ImpactClassifier()
        deaf.acceptance = 1.01
        deaf.struckAcceptance = 1.01
        deaf.clearAttackDB = 999
        deaf.veryClearAttackDB = 999
        func found(_ impacts: [Impact]) -> [Int] {
            onsets.indices.filter { i in impacts.contains { abs($0.frame - Int64(onsets[i])) <= Int64(clip.rate / 500) } }
        }
        let heard = try RealRecordings.detect(samples, rate: clip.rate, classifier: deaf) { $0.streamLikeShapeDB = 0 }
        #expect(found(heard) == Array(3..<onsets.count), "found \(found(heard)) of \(onsets.count)")
        #expect(heard.count == found(heard).count, "no false alarm")
        let unheard = try RealRecordings.detect(samples, rate: clip.rate, classifier: deaf) {
            $0.streamLikeShapeDB = 0
            $0.rejectedRunShapeDB = 0
        }
        #expect(unheard.isEmpty, "\(unheard.count) reported without the rejected run")
    }

    @Test("""
        a dropped ball in a live room (a diffuse tail 10 dB under each bounce, RT60 0.8 s): 17 real bounces from \
        200 ms apart, each gap ×0.9 and each bounce ×0.81 (the last 29 dB under the first, 37 ms after the one \
        before), every one found to 2 ms
        """)
    func droppedBallInALiveRoom() throws {
        let clip = try RealRecordings.clip(table: true)
        let (events, end) = RealRecordings.droppedBall(
            clip, count: 17, firstGap: 0.2, gapRatio: 0.9, gainRatio: 0.81)
        var (samples, onsets) = scene(seconds: end + 0.5, rate: clip.rate, events: events)
        addRoom(to: &samples, rate: clip.rate, events: events, clip: clip, rt60: 0.8, tailDB: -10)
        // Without the run's template (`runLikeShapeDB`, `runLikeFirstSeconds`) the last two are missed.
        let impacts = try RealRecordings.detect(samples, rate: clip.rate)
        let missed = onsets.indices.filter { i in
            !impacts.contains { abs($0.frame - Int64(onsets[i])) <= Int64(clip.rate / 500) }
        }
        #expect(missed.isEmpty, "missed bounces \(missed) of \(onsets.count)")
        #expect(impacts.count == onsets.count)
    }

    /// A dropped ball, 18 real bounces from 200 ms apart, each gap × `gapRatio` and each bounce × 0.82 (the last
    /// 29 dB under the first), in a room whose diffuse tail starts `tailDB` under each bounce and falls 60 dB in
    /// `rt60`, in white noise at −61 dBFS RMS: the bounces found within 2 ms, the impacts reported, the bounces.
    private func droppedBallInARoom(tailDB: Float, rt60: Double, gapRatio: Double,
                                    tune: (inout DetectorParameters) -> Void = { _ in }) throws
        -> (found: Int, reported: Int, bounces: Int) {
        let clip = try RealRecordings.clip(table: true)
        let (events, end) = RealRecordings.droppedBall(
            clip, count: 18, firstGap: 0.2, gapRatio: gapRatio, gainRatio: 0.82)
        var (samples, onsets) = scene(seconds: end + 0.5, rate: clip.rate, events: events, noisePeak: 0.0015)
        addRoom(to: &samples, rate: clip.rate, events: events, clip: clip, rt60: rt60, tailDB: tailDB)
        let impacts = try RealRecordings.detect(samples, rate: clip.rate, tune: tune)
        let found = onsets.filter { onset in impacts.contains { abs($0.frame - Int64(onset)) <= Int64(clip.rate / 500) } }
        return (found.count, impacts.count, onsets.count)
    }

    @Test("""
        a dropped ball in a reverberant room (RT60 1.2 s, tail 10 dB under each bounce; 18 bounces, gaps ×0.9, the \
        last 29 dB under the first): the run's clock finds every one to 2 ms; without it two are lost
        """)
    func droppedBallOnTheClock() throws {
        let withClock = try droppedBallInARoom(tailDB: -10, rt60: 1.2, gapRatio: 0.9)
        #expect(withClock.found == withClock.bounces && withClock.reported == withClock.bounces, "\(withClock)")
        let without = try droppedBallInARoom(tailDB: -10, rt60: 1.2, gapRatio: 0.9) { $0.runOnTime = false }
        #expect(without.found < withClock.found, "without the clock \(without), with it \(withClock)")
    }

    @Test("""
        a dropped ball in a loud room (tail 4 dB under each bounce, RT60 0.5 s; gaps ×0.86): the ring's prediction \
        error triggers on late bounces no spectral trigger sees (without it fewer are found), and on nothing else
        """)
    func droppedBallByRingError() throws {
        let withError = try droppedBallInARoom(tailDB: -4, rt60: 0.5, gapRatio: 0.86)
        let without = try droppedBallInARoom(tailDB: -4, rt60: 0.5, gapRatio: 0.86) { $0.runErrorAlarm = 0 }
        #expect(withError.found > without.found, "with the ring-error trigger \(withError), without \(without)")
        #expect(withError.reported == withError.found, "no false alarm: \(withError)")
    }

    @Test("""
        a dropped ball in a live room (tail 2 dB under each bounce, RT60 0.3 s; gaps ×0.86): a late bounce whose bands \
        barely rise over the ring, on the run's clock and unpredicted by the ring, is found (without the rule one \
        fewer), and nothing else
        """)
    func droppedBallUnpredicted() throws {
        let with = try droppedBallInARoom(tailDB: -2, rt60: 0.3, gapRatio: 0.86)
        let without = try droppedBallInARoom(tailDB: -2, rt60: 0.3, gapRatio: 0.86) { $0.runInnovationDB = 0 }
        #expect(with.found > without.found, "with the ring's innovation \(with), without \(without)")
        #expect(with.reported == with.found, "no false alarm: \(with)")
    }

    @Test("""
        a racket's tick 0.68 of a gap into a dropped ball's run (its clock says 0.9), 14 dB under the bounce before: \
        no bounce of the run, so not reported (without the off-clock rule it is), and every bounce is found
        """)
    func droppedBallOffClock() throws {
        let clip = try RealRecordings.clip(table: true), racket = try RealRecordings.clip(table: false)
        let (events, end) = RealRecordings.droppedBall(
            clip, count: 15, firstGap: 0.19, gapRatio: 0.9, gainRatio: 0.85)
        let tick = (time: events[7].time + 0.68 * (events[8].time - events[7].time), clip: racket, gain: 0.2 * events[7].gain)
        let (samples, onsets) = scene(seconds: end + 0.5, rate: clip.rate, events: events + [tick])
        func found(_ impacts: [Impact]) -> Int {
            onsets.filter { onset in impacts.contains { abs($0.frame - Int64(onset)) <= Int64(clip.rate / 500) } }.count
        }
        let kept = try RealRecordings.detect(samples, rate: clip.rate)
        #expect(found(kept) == 15 && kept.count == 15, "\(found(kept)) of 15 bounces and the tick found, \(kept.count) reported")
        let without = try RealRecordings.detect(samples, rate: clip.rate) { $0.runOffClock = 0 }
        #expect(without.count == 16, "without the rule the tick is the run's next bounce: \(without.count) reported")
    }

    @Test("""
        a dropped ball in a reverberant room whose tail is as loud as the bounces (2 dB under each, RT60 1.2 s; gaps \
        ×0.86): a candidate the ring predicted moves to where its error began to rise, the bounce after it; more \
        bounces found than without, and no more reports that are none
        """)
    func droppedBallRetimed() throws {
        let moved = try droppedBallInARoom(tailDB: -2, rt60: 1.2, gapRatio: 0.86)
        // Without the retime, without a trigger in a taken stirring's refractory, which may replace it, and without
        // moving a candidate ahead of the clock onto it (`runEarlyRetimeClock`), which finds those bounces too.
        let kept = try droppedBallInARoom(tailDB: -2, rt60: 1.2, gapRatio: 0.86) {
            $0.runRetimeDB = 0
            $0.runReplaceTriggers = false
            $0.runEarlyRetimeClock = 0
        }
        #expect(moved.found > kept.found, "retimed \(moved), not \(kept)")
        #expect(moved.reported - moved.found <= kept.reported - kept.found, "retimed \(moved), not \(kept)")
    }

    @Test("""
        a real racket tick taken for a ball, then 11 ms later a real table bounce 20 dB louder: the bounce is a new \
        impact, not the tick's ring (without the stronger-onset rule its refractory swallows it)
        """)
    func strongerOnsetInRefractory() throws {
        let table = try RealRecordings.clip(table: true), racket = try RealRecordings.clip(table: false)
        // The bounce's onset 11 ms after the tick's (the clips' own onsets differ).
        let tickTime = 0.5, bounceTime = tickTime + Double(racket.onset - table.onset) / Double(table.rate) + 0.011
        let (samples, onsets) = scene(seconds: 1.2, rate: table.rate,
                                      events: [(tickTime, racket, 0.1), (bounceTime, table, 1)])
        func found(_ impacts: [Impact]) -> [Bool] {
            onsets.map { onset in impacts.contains { abs($0.frame - Int64(onset)) <= Int64(table.rate / 500) } }
        }
        let both = try RealRecordings.detect(samples, rate: table.rate)
        #expect(found(both) == [true, true] && both.count == 2, "\(both.map(\.time)) for \(onsets)")
        let swallowed = try RealRecordings.detect(samples, rate: table.rate) { $0.strongerOnsetRatio = 0 }
        #expect(found(swallowed) == [true, false], "without the rule: \(swallowed.map(\.time)) for \(onsets)")
    }

    @Test("""
        24 real hits and bounces in white noise 5–8 dB under their first 10 ms: every one found; without the clear \
        rule's relief for a peaky onset, the stream's own balls are the template that finds every one (timbre alone: 21)
        """)
    func rallyInNoise() throws {
        let table = try RealRecordings.clip(table: true), racket = try RealRecordings.clip(table: false)
        var noise = TestNoise(seed: 9)
        let (events, time) = alternatingRally(shots: 24, racket: racket, table: table, noise: &noise)
        var (samples, onsets) = scene(seconds: time + 0.5, rate: table.rate, events: events)
        // −26 dB RMS: the clips' first 10 ms are at −21 (table) and −18 dB (racket).
        for i in samples.indices { samples[i] += 0.05 * Float(3).squareRoot() * noise.next() }
        func found(_ impacts: [Impact]) -> Int {
            onsets.filter { onset in impacts.contains { abs($0.frame - Int64(onset)) <= Int64(table.rate / 500) } }.count
        }
        let defaults = try RealRecordings.detect(samples, rate: table.rate)
        #expect(found(defaults) == onsets.count && defaults.count == onsets.count)
        // The hand rules: with and without the template, the clear rule asking every onset its full tonality.
        var strict = ImpactClassifier()
        strict.clearPeakyFlatnessDB = 0
        let withTemplate = try RealRecordings.detect(samples, rate: table.rate, classifier: strict)
        let byTimbre = try RealRecordings.detect(samples, rate: table.rate, classifier: strict) {
            $0.streamLikeShapeDB = 0
        }
        #expect(found(withTemplate) > found(byTimbre), "template \(found(withTemplate)), timbre \(found(byTimbre)) of 24")
        #expect(found(withTemplate) == onsets.count)
        #expect(withTemplate.count == found(withTemplate), "no false alarm")
        // The learned score (`CandidateModel`, off by default) hears them all as well, with no false alarm.
        let learned = try RealRecordings.detect(samples, rate: table.rate) { $0.candidateModel = true }
        #expect(found(learned) == onsets.count && learned.count == onsets.count)
    }

    /// A room's diffuse field: after each impact, noise (low-passed at about 6 kHz) whose power starts `tailDB` under
    /// the impact's first 10 ms and falls by 60 dB in `rt60` seconds; the impacts' tails add in power.
    private func addRoom(to samples: inout [Float], rate: Int, events: [(time: Double, clip: RealRecordings.Clip, gain: Float)],
                         clip: RealRecordings.Clip, rt60: Double, tailDB: Float) {
        let head = clip.samples[clip.onset..<(clip.onset + rate / 100)]
        let power = head.reduce(0) { $0 + $1 * $1 } / Float(head.count) * pow(10, tailDB / 10)
        let fall = Float(exp(-13.8 / (rt60 * Double(rate))))
        let smooth = Float(1 - exp(-2 * Double.pi * 6000 / Double(rate)))
        var noise = TestNoise(seed: 23)
        var envelope: Float = 0, low: Float = 0, next = 0
        for i in samples.indices {
            while next < events.count, Int((events[next].time * Double(rate)).rounded()) == i {
                envelope += events[next].gain * events[next].gain * power
                next += 1
            }
            // Uniform noise has RMS 1/√3; the one-pole low-pass keeps smooth / (2 − smooth) of white noise's power.
            low += smooth * (noise.next() * Float(3).squareRoot() - low)
            samples[i] += low * (envelope * (2 - smooth) / smooth).squareRoot()
            envelope *= fall
        }
    }
}

