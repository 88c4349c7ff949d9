import Foundation
import Testing

/// `Benchmarks/Scripts/real_corpus.py` (labelled files from real ball recordings) and `pongd detect` on what it
/// makes: the tool's labels sit on the clicks (`--verify`), and the detector finds every real impact of issue 11's
/// 12 s file within 2 ms, with its kind.
@Suite("real-sample corpus tool")
struct RealCorpusToolTests {
    /// Debian's python3 with numpy, scipy and soundfile (`.ci/run` installs them), and csmash-data.
    static let python = "/usr/bin/python3"
    static var unavailable: String? {
        guard FileManager.default.fileExists(atPath: "/usr/share/games/csmash/wav/table.wav") else {
            return "csmash-data is not installed (apt-get install csmash-data): no real ball recordings"
        }
        let check = try? ToolRun.run(python, ["-c", "import numpy, scipy, soundfile"])
        guard check?.status == 0 else {
            return "\(python) lacks numpy/scipy/soundfile (apt-get install python3-numpy python3-scipy python3-soundfile)"
        }
        return nil
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let script = repository.appendingPathComponent("Benchmarks/Scripts/real_corpus.py").path

    @Test("issue 11's 12 s file: every racket hit and table bounce within 2 ms, no false alarm, kinds ≥ 90 % right",
          .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func quickFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("real-corpus-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try ToolRun.run(Self.python, [Self.script, "--quick", "--out", folder.path])
        #expect(made.status == 0, "\(made.stderr)")
        let labels = try Self.impacts(String(contentsOf: folder.appendingPathComponent("quick_events.csv"), encoding: .utf8))
        #expect(labels.count == 31)

        let detected = try ToolRun.run(ToolRun.pongd().path, ["detect", folder.appendingPathComponent("quick.wav").path])
        #expect(detected.status == 0, "\(detected.stderr)")
        let found = Self.impacts(detected.stdout)
        var wrongKinds: [Double] = []
        for label in labels {
            let match = found.first { abs($0.time - label.time) <= 0.002 }
            #expect(match != nil, "no impact within 2 ms of the \(label.kind) at \(label.time) s")
            if let match, match.kind != label.kind { wrongKinds.append(label.time) }
        }
        #expect(found.count == labels.count, "false alarms: \(found.count - labels.count)")
        // Issue 11's target: kind accuracy ≥ 0.90 on the real samples.
        #expect(Double(wrongKinds.count) <= 0.1 * Double(labels.count), "wrong kind at \(wrongKinds) s")
    }

    @Test("""
        another real ball, table and bat (Facepunch's recordings, never tuned on): a 12 s rally at 20 dB, every impact \
        within 2 ms, labels on the clicks
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func independentBall() throws {
        let folder = try Self.verifiedSeed(31, source: "facepunch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let labels = try Self.impacts(String(contentsOf: folder.appendingPathComponent("real31_facepunch_rally_events.csv"),
                                             encoding: .utf8))
        #expect(labels.count >= 10)
        let detected = try ToolRun.run(ToolRun.pongd().path,
                                       ["detect", folder.appendingPathComponent("real31_facepunch_rally_snr20.wav").path])
        #expect(detected.status == 0, "\(detected.stderr)")
        let found = Self.impacts(detected.stdout)
        let missed = labels.filter { label in !found.contains { abs($0.time - label.time) <= 0.002 } }
        #expect(missed.isEmpty, "missed \(missed.map(\.time)) of \(labels.count)")
        // The kind does not carry over to this ball (docs/DETECTOR.md, "Known limits"): not asserted.
    }

    @Test("""
        a dropped ball sounded by several recordings (Facepunch's three bounces, cut 1.5–5 ms before their clicks) is \
        timed by its clicks: each gap's ratio to the last stays within 0.02 of the one before (placed by the \
        recordings' starts they jumped by 0.04 in the median, alternating 0.88 / 0.95)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func dropTimedByClicks() throws {
        let folder = try Self.verifiedSeed(31, source: "facepunch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let times = try Self.impacts(String(contentsOf: folder.appendingPathComponent("real31_facepunch_drop_events.csv"),
                                            encoding: .utf8)).map(\.time)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        // Within a drop (a new one starts after a pause of over 0.3 s): the ratio of each gap to the one before.
        var ratios: [Double?] = []
        for (gap, previous) in zip(gaps.dropFirst(), gaps) {
            ratios.append(gap < 0.3 && previous < 0.3 ? gap / previous : nil)
        }
        var jumps: [Double] = []
        for (ratio, previous) in zip(ratios.dropFirst(), ratios) {
            if let ratio, let previous { jumps.append(abs(ratio - previous)) }
        }
        #expect(jumps.count >= 10)
        #expect(jumps.allSatisfy { $0 <= 0.02 }, "ratio jumps \(jumps.filter { $0 > 0.02 })")
    }

    @Test("""
        a ball that rings long (csmash's racket recording as a dropped ball's bounce, tuning seed 13, 12 s): its second \
        and third bounces rise inside the last one's ring by 6–9 dB, short of their rules' attack, but unpredicted by \
        that ring; with the rule 12 of 13 bounces within 2 ms and nothing else, without it 2 (runstartinnov=0 also takes \
        the loose rules' unpredicted start; and without the clipped-onset rules, which since the sixteenth session take \
        8 of those bounces on their own: clipratio=20, clipringratio=0)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func droppedRingingBall() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 13, seconds: 12),
                                  off: "runstartinnov=0,runclip=0,clipratio=20,clipringratio=0",
                                  labels: 13,
                                  found: 12..., falseReports: 0...0, foundWithout: ...4, falseWithout: Self.anyCount)
    }

    @Test("""
        what follows a rally's ball 100–250 ms on in a loud room (freesound, tuning seed 13, 0 dB, 60 s) rises 7–8 dB \
        and the run rule took it for the ball's next bounce; after a run of one or two impacts it asks 10 dB: 57 of 72 \
        balls within 10 ms with 9 false reports (8 before the templates' share went to 0.75), 12 or more without
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func earlyRunAttack() throws {
        try CorpusFile.expectRule(on: CorpusFile.rallyAtZeroDB(seed: 13, source: "freesound"), off: "runearlyattack=0",
                                  labels: 72, found: 57..., falseReports: ...9, foundWithout: Self.anyCount,
                                  falseWithout: 11...)
    }

    @Test("""
        a loud room from its first seconds (csmash, tuning seed 20, 0 dB, 60 s): the first ball reported sets how far \
        the stream's balls clear the room (it was averaged with a quiet room's 24 dB, and the attack gate stayed at \
        10 dB for five or six balls), is the stream's first template, and brings the trigger's floor down (from a \
        quiet room's typical flux at a tenth a ball it stayed at 22 for ~16 balls): 57 of 72 balls within 10 ms with \
        5 false reports, 53 with 4 as before
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func loudRoomFromTheStart() throws {
        // With the learned recovery off (model=0): it gives back balls the slow start also lost.
        try CorpusFile.expectRule(on: CorpusFile.rallyAtZeroDB(seed: 20, source: "csmash"),
                                  off: "typprior=1,streamlikemin=3,typfluxwarm=0,typfluxstart=100", base: "model=0",
                                  labels: 72,
                                  found: 56..., falseReports: ...5, foundWithout: ...54, falseWithout: Self.anyCount,
                                  named: ("from the first ball", "as before"))
    }

    @Test("""
        a second real ball at 0 dB (freesound, tuning seed 16, 60 s): babble under 1 kHz pulls a faint bounce's \
        centroid under the thud rule's 1 kHz; the stream's own templates give it back when it matches them at 0.95 of \
        their reference: 63 of 72 balls within 10 ms with 2 false reports, 59 without
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func thudMatchingTemplates() throws {
        try CorpusFile.expectRule(on: CorpusFile.rallyAtZeroDB(seed: 16, source: "freesound"), off: "tplthud=0",
                                  labels: 72, found: 62..., falseReports: ...3, foundWithout: ...60,
                                  falseWithout: Self.anyCount, named: ("with the templates", "without them"))
    }

    @Test("""
        a loud dropped ball whose bounces the phone clips (csmash, tuning seed 41, 60 s): clipping spreads a \
        bounce's lines into harmonics (tonality 0.62–0.74), and the run's tonality lost its third bounce and the \
        seven after it; a clipped bounce is not asked it: 110 of 110 bounces within 2 ms, 101 without. (Since the \
        rule for a bounce clipping 1.5 × as densely as its clipped ring, `runcliprising`, that rule takes the third \
        bounce on its own too, and so does the one for a bounce clipping at a ball's pace, `runclippace`: without all \
        three, 101.)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func droppedClippedBallTonality() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 41, seconds: 60, source: "csmash"),
                                  off: "runcliptonal=0,runcliprising=0,runclippace=0", labels: 110, found: 109...,
                                  falseReports: 0...0, foundWithout: ...102, falseWithout: Self.anyCount,
                                  named: ("with either rule", "without both"))
    }

    @Test("""
        claps in a quiet room (csmash, tuning seed 19, 60 s, no bed): they clear it by 20–30 dB and the clear-impact \
        rule took 16 of them; 1.5 times as bright as the stream's brighter balls and flat, 13 are rejected: every \
        ball found within 2 ms, 3 false reports; 16 without the rule
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func quietRoomClapsRejected() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 19, seconds: 60, source: "csmash", part: "rally"),
                                  off: "brightflat=0", labels: 67, found: 67...67, falseReports: ...3,
                                  foundWithout: 67...67, falseWithout: 14...)
    }

    @Test("""
        a dropped ball's ring stirring before its next bounce (csmash's racket recording as the bounce, tuning seed 13, \
        60 s, 20 dB): 7.5 ms early, 6 % off the clock and 11.6 dB quieter than the last bounce, it was taken as on \
        time and the bounce after it lost; not on time, 102 of 103 bounces within 2 ms and one false report, 101 \
        and two without the rule (and without a trigger in the stirring's refractory, which may replace it: 102 \
        with that alone). Since the sixteenth session two false reports with the rule, three without: the ring's \
        error no longer triggers 17 % off the clock, and a band-rise trigger 21 ms before a bounce is taken instead \
        (the figures without: and without moving a candidate ahead of the clock onto it, runearlyretime, which since \
        the eighteenth session finds it too)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func droppedBallRingStirNotOnTime() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 13, seconds: 60, condition: "snr20"),
                                  off: "runstir=0,runreplacetrig=0,runearlyretime=0",
                                  labels: 103, found: 102..., falseReports: ...2, foundWithout: ...101,
                                  falseWithout: 2...)
    }

    @Test("""
        a dropped ball's last bounce on the run's clock (csmash, tuning seed 18, 60 s, 20 dB): −30 dB under the first, \
        43.7 ms after the one before and 0.6 % off the clock, it rises 5.1 dB over the ring but grows after it and the \
        ring predicts all but 2.7 dB of it, short of the on-time and unpredicted rules; on the clock, all 108 bounces \
        within 2 ms, 107 without the rule
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func droppedBallLastBounceOnClock() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 18, seconds: 60, source: "csmash", condition: "snr20"),
                                  off: "runonclock=0", labels: 108, found: 108..., falseReports: ...1,
                                  foundWithout: ...107, falseWithout: Self.anyCount)
    }

    @Test("""
        a dropped ball's bounce shaped loosely like the last, on its clock (csmash, tuning seed 47, 60 s, clean): \
        5.6 dB from the last bounce's shape, 0.3 % off the clock, 10 dB of attack and 11 dB the ring could not \
        predict, short of the loose rule's 14 dB; on the clock, all 104 bounces within 2 ms, 103 without the rule (103 \
        and 102 before the clipped drop's rejected early bounce was moved)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func droppedBallLooseBounceOnClock() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 47, seconds: 60, source: "csmash"), off: "runonclockloose=0",
                                  labels: 104, found: 104..., falseReports: ...2, foundWithout: ...103,
                                  falseWithout: Self.anyCount)
    }

    @Test("""
        a loud drop whose rings stay at the phone's rail (csmash, tuning seed 48, 60 s, clean): its second and third \
        bounces' candidates fire 2–3.5 ms early on the ring's rail-touching peaks and are rejected, their refractory \
        holding off the bounces; moved to the refiner's edge after the dense clipping that follows, in a run of one \
        or two, all 115 bounces within 2 ms and no false report, 113 without
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func droppedClippedBallRejectedRetimed() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 48, seconds: 60, source: "csmash"),
                                  off: "runclipretimerejected=0", labels: 115, found: 115..., falseReports: ...0,
                                  foundWithout: ...113, falseWithout: Self.anyCount)
    }

    @Test("""
        a loud drop at the stream's start, the phone's gain still up (csmash, tuning seed 53, 60 s, clean): the first \
        bounce's ring sits at the rail a third to a half of the time when the second and third bounces come, so their \
        clipping is only 1.5–3 × as dense as the ring's; on their 6–16 dB of attack they are the run's bounces, all \
        111 within 2 ms, 108 without (and without the ringing clipped onset, which since the eighteenth session takes \
        two of them on its own: clipringratio=0)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func droppedBallClippingOverClippedRing() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 53, seconds: 60, source: "csmash"),
                                  off: "runcliprising=0,clipringratio=0",
                                  labels: 111, found: 111..., falseReports: ...1, foundWithout: ...108,
                                  falseWithout: Self.anyCount)
    }

    @Test("""
        a ball that keeps more of its speed the slower it strikes (csmash, tuning seed 67, 60 s, clean, each gap's \
        ratio climbing by 0.04 as the gaps shrink, ±0.005 a bounce): its drops end in bounces 35–40 ms apart, heard \
        first as the ring's stirring 2–5 ms early and rejected there; moved to where the ring's prediction error \
        rises after it, the bounce is found: all 123 within 2 ms, 120 without (three reports that are none, one more \
        than without: a stirring on the clock after a drop's last bounce, which the run now reaches; and without \
        moving a candidate ahead of the clock onto it, runearlyretime, which since the eighteenth session finds it \
        too)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func droppedBallRejectedStirringRetimed() throws {
        try CorpusFile.expectRule(on: CorpusFile.risingRestitutionDrop(seed: 67),
                                  off: "runretimerejected=0,runearlyretime=0", labels: 123, found: 123...,
                                  falseReports: ...3,
                                  foundWithout: ...120, falseWithout: Self.anyCount)
    }

    @Test("""
        a drop whose gaps climb as the ball slows (csmash, tuning seed 75, 60 s, clean, restitution as above): a \
        ring's stirring 8.5 ms ahead of a bounce, taken 4 % off the run's clock, is replaced by the bounce after it, \
        2 % off and nearer the clock than the stirring: 122 of 123 within 2 ms, 121 without
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func droppedBallCloserBounceReplacesStirring() throws {
        try CorpusFile.expectRule(on: CorpusFile.risingRestitutionDrop(seed: 75),
                                  off: "runreplacecloser=0", labels: 123, found: 122..., falseReports: ...1,
                                  foundWithout: ...121, falseWithout: Self.anyCount)
    }

    @Test("""
        the corpus tool's restitution: each gap's ratio climbs as the ball slows and varies bounce to bounce, and \
        without it (the default, every split's files) one ratio holds a whole drop
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func restitutionGaps() throws {
        /// Each drop's gap ratios, in order (a pause between drops is 1.5 s or more).
        func drops(_ generator: [String]) throws -> [[Double]] {
            let file = try CorpusFile(seed: 61, seconds: 20, source: "csmash", generator: generator)
            defer { file.remove() }
            let times = file.labels.map(\.time)
            var drops: [[Double]] = [], gaps: [Double] = []
            for (earlier, later) in zip(times, times.dropFirst()) {
                if later - earlier > 1 {
                    drops.append(zip(gaps, gaps.dropFirst()).map { $1 / $0 })
                    gaps = []
                } else {
                    gaps.append(later - earlier)
                }
            }
            drops.append(zip(gaps, gaps.dropFirst()).map { $1 / $0 })
            return drops.filter { $0.count >= 5 }
        }
        let constant = try drops([])
        let rising = try drops(Self.risingRestitution)
        #expect(!constant.isEmpty && !rising.isEmpty)
        // One ratio a drop, to the labels' rounding (each impact's onset is found in its own resampled recording).
        for ratios in constant { #expect(ratios.max()! - ratios.min()! < 0.01, "\(ratios)") }
        for ratios in rising { #expect(ratios.last! > ratios.first! + 0.02, "the ratio climbs: \(ratios)") }
    }

    @Test("""
        a loud drop's third bounce clipping a third of its first 3 ms (csmash, tuning seed 65, 60 s, clean): \
        clipping bent its band shape and lines, so no likeness rule and no timbre took it; at a bouncing ball's pace \
        (0.84 of the run's one gap) on 11 dB of attack it is the bounce, all 87 within 2 ms, 86 without
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func droppedBallClippingOnPace() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 65, seconds: 60, source: "csmash"), off: "runclippace=0",
                                  labels: 87, found: 87..., falseReports: ...1, foundWithout: ...86,
                                  falseWithout: Self.anyCount)
    }

    @Test("""
        a ring's stirring taken for a bounce (csmash's racket recording as the ball, tuning seed 14, 60 s, clean): \
        taken 6.9 ms early, 4.4 % off the run's clock, it put the bounce itself off the clock, and the clock it left \
        took the next stirring too; the bounce, on the clock the run had before, takes the stirring's place in the \
        run: 111 of 113 bounces within 2 ms (112 once a trigger in the stirring's refractory may replace it, 113 \
        since the sixteenth session), 109 without (110 since; and without moving a candidate ahead of the clock onto \
        it, runearlyretime, which since the eighteenth session finds it too)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func droppedBallBounceReplacesTakenStirring() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 14, seconds: 60), off: "runreplace=0,runearlyretime=0",
                                  labels: 113,
                                  found: 112..., falseReports: ...5, foundWithout: ...110,
                                  falseWithout: Self.anyCount)
    }

    @Test("""
        a ring's stirring the band rise took for a bounce (csmash's racket recording as the ball, tuning seed 15, \
        60 s, clean), 8 ms early and 6.7 % off the run's clock: its refractory held the bounce's own trigger off \
        (the band rise leaves no flux for a stronger onset to beat); a trigger there may start a candidate only to \
        replace the report, 106 of 107 bounces within 2 ms, 104 without (and without moving a rejected stirring to \
        the bounce, `runretimerejected`, which finds that bounce on its own too; 105 and 103 with each timed at its \
        edge, onsetlag=0; and without moving a candidate ahead of the clock onto it, runearlyretime, which since the \
        eighteenth session finds it too)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func droppedBallBounceTriggersAfterTakenStirring() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 15, seconds: 60),
                                  off: "runreplacetrig=0,runretimerejected=0,runearlyretime=0",
                                  labels: 107,
                                  found: 106..., falseReports: ...1, foundWithout: ...104,
                                  falseWithout: Self.anyCount)
    }

    @Test("""
        a drop's last bounces in a room 20 dB under its first (csmash, tuning seed 52, 60 s, 20 dB): a bounce 27 dB \
        under the first, 1 % off the run's clock, rises 7.5 dB with 5 dB of ring innovation but measures its shape \
        5.6 dB from the last bounce's, past the on-time and loose rules; on the clock whatever its shape, 94 of 95 \
        bounces within 2 ms, 93 without
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func droppedBallUnlikeBounceOnClock() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 52, seconds: 60, source: "csmash", condition: "snr20"),
                                  off: "runonclockunlike=0", labels: 95, found: 94..., falseReports: ...1,
                                  foundWithout: ...93, falseWithout: Self.anyCount)
    }

    @Test("""
        a run's clock from four gaps (csmash's racket recording as a dropped ball's bounce, tuning seed 15, 60 s, \
        20 dB): late bounces 40–50 ms apart are timed within a millisecond, 2–5 % of their gap, and the last two gaps \
        alone put the next bounce off the clock; fitted over four, 103 of 107 bounces within 2 ms, 96 with two. And \
        the late bounces, a few dB over the ring, reported where their attack began, not where it cleared the ring \
        (the edge's lag, onsetlag): two more within 2 ms (101 timed at their edge, two of them 2.0–2.1 ms late). \
        All without moving a candidate ahead of the clock onto it (runearlyretime=0): since the eighteenth session \
        that move takes two of these bounces, each a little ahead of a clock the last report biased, 1.5–2 ms \
        later, where the ring's error rises again (101 within 2 ms as the detector stands)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func droppedBallClockOverFourGaps() throws {
        let drop = try CorpusFile(seed: 15, seconds: 60, condition: "snr20")
        defer { drop.remove() }
        try drop.expectRule(off: "runclockgaps=2", base: "runearlyretime=0",
                            labels: 107, found: 102..., falseReports: ...2, foundWithout: ...98,
                            falseWithout: Self.anyCount, named: ("four gaps", "two gaps"))
        try drop.expectRule(off: "onsetlag=0", base: "runearlyretime=0",
                            labels: 107, found: 103..., falseReports: ...2, foundWithout: ...101,
                            falseWithout: 2..., named: ("reported where the attack began", "at the edge"))
    }

    @Test("""
        a loud ball's ring pinned to the rail (csmash, tuning seed 43, 60 s): its peaks touching the rail tripped the \
        trigger 2–6 ms before a bounce, taken there as the bounce, the run's clock thrown off; moved to where the rail \
        holds the signal far more often, 112 of 113 bounces within 2 ms with 2 false reports (one the drop's last \
        bounce, which the clock fitted over four gaps now takes, 2.0 ms late); 108 and 4 without the move. Three \
        false reports since the sixteenth session: a whole-band stirring 11 ms early, moved to the ring's change point \
        5 ms before a bounce (`runretimescope` 1), is taken there as well as the bounce
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func droppedClippedBallRetimed() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 43, seconds: 60, source: "csmash"), off: "runclipretime=0",
                                  labels: 113, found: 111..., falseReports: ...3, foundWithout: ...109,
                                  falseWithout: 3..., named: ("with the move", "without it"))
    }

    @Test("""
        a ball that rings long (csmash's racket recording as a dropped ball's bounce, tuning seed 14, 30 s): a second \
        bounce struck inside the first's ring is shaped 2.5–6 dB off it, too far for the second-bounce rules, and the \
        whole sequence was lost with it; unpredicted by that ring and not flat, it is the second bounce: 44 of 44 \
        bounces within 2 ms (43 before a bounce replaced a stirring taken for it, `runreplace`), 40 without the \
        second's rules and that replacement (41 with the replacement alone; and without moving a candidate ahead of \
        the clock onto it, runearlyretime, which since the eighteenth session finds it too)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func droppedRingingBallLooseSecond() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 14, seconds: 30),
                                  off: "runlooseshape=0,runclip=0,runcliptonal=0,runclipretime=0,runreplace=0,"
                                      + "runearlyretime=0",
                                  labels: 44, found: 43..., falseReports: ...1, foundWithout: ...40,
                                  falseWithout: Self.anyCount)
    }

    @Test("""
        the same ball (tuning seed 12, 60 s): a run of two's third bounce, or a later bounce of a run speeding up, \
        shaped 2.5–6 dB off the last one's, unpredicted by the ring and not flat, is the bounce: 103 of 105 bounces \
        within 2 ms; 97 without the third's rule (and the third's own at 2.5 dB), 102 without the later one's
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func droppedRingingBallLooseThirdAndLater() throws {
        let drop = try CorpusFile(seed: 12, seconds: 60)
        defer { drop.remove() }
        #expect(drop.labels.count == 105)
        let with = try drop.found([])
        // The third's own rule at its first 2.5 dB: at 3 dB it takes the bounces lying 2.5–3 dB off.
        // (clip=0, runclip=0, runcliptonal=0, runclippace=0: the clipped-onset rules take some of the bounces the third's
        // rule otherwise must; so in every test here that turns off a run rule, whose clipped bounces they would take.)
        let withoutThird = try drop.found(["--tune", "runloosethird=0,runlikethird=2.5,clip=0,runclip=0,runclippace=0"])
        let withoutLater = try drop.found(["--tune", "runlooselater=0,runclip=0,runcliptonal=0,runclippace=0"])
        #expect(with.found >= 103 && with.reported - with.found <= 2, "with the rules \(with) of \(drop.labels.count)")
        #expect(withoutThird.found <= 99, "without the third's \(withoutThird)")
        #expect(withoutLater.found < with.found, "without the later one's \(withoutLater)")
    }

    @Test("""
        a ringing ball's third bounce shaped 2.6 dB off its second (csmash's racket recording as the ball, tuning seed \
        11, 60 s): a run of two's third bounce within 3 dB of the second's shape is the bounce, and the drop's next \
        bounces follow it: 97 of 98 bounces within 2 ms, 94 within 2.5 dB
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func droppedRingingBallThirdShapedLikeSecond() throws {
        let drop = try CorpusFile(seed: 11, seconds: 60)
        defer { drop.remove() }
        #expect(drop.labels.count == 98)
        let with = try drop.found([]), tighter = try drop.found(["--tune", "runlikethird=2.5,runclip=0,runclippace=0"])
        #expect(with.found >= 97 && with.reported - with.found <= 1, "within 3 dB \(with) of \(drop.labels.count)")
        #expect(tighter.found <= 95, "within 2.5 dB \(tighter)")
    }

    @Test("""
        a drop nobody heard (csmash's recordings, tuning seed 20, 60 s, 20 dB): its first bounce rang unlike a ball and \
        its second rose in one band only; a rejected run noting bounces that rise in one band keeps the ball's clock \
        from there: 97 of 100 bounces within 2 ms without the clipped-onset rule, 95 when it noted only those rising \
        in two; with that rule (the first bounce was clipped) all 100
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func dropNobodyHeardOneBand() throws {
        let drop = try CorpusFile(seed: 20, seconds: 60, source: "csmash", condition: "snr20")
        defer { drop.remove() }
        #expect(drop.labels.count == 100)
        let with = try drop.found([]), unclipped = try drop.found(["--tune", "clip=0,runclip=0"])
        let without = try drop.found(["--tune", "rejrunbands=2,clip=0,runclip=0"])
        #expect(with.found == 100 && with.reported - with.found <= 5, "with \(with) of \(drop.labels.count)")
        #expect(unclipped.found >= 97 && unclipped.reported - unclipped.found <= 5, "clip=0 \(unclipped)")
        #expect(without.found <= 95, "two bands \(without)")
    }

    @Test("""
        a rally at 0 dB (csmash's recordings, tuning seed 11, 60 s): the stream's own clear balls as templates give back \
        balls the room drowned that the timbre rules rejected: 64 of 79 within 10 ms and 1 other report, 56 and 1 \
        without the templates (63 and 52 before the eighth session's rules)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func rallyAtZeroDBByTemplates() throws {
        // With the learned recovery off (model=0): it gives back some of what the templates do.
        try CorpusFile.expectRule(on: CorpusFile.rallyAtZeroDB(seed: 11, source: "csmash"), off: "tpl=0",
                                  base: "model=0", labels: 79,
                                  found: 62..., falseReports: ...4, foundWithout: ...57, falseWithout: Self.anyCount,
                                  named: ("with the templates", "without them"))
    }

    @Test("""
        a rally at 0 dB (csmash, tuning seed 12, 60 s): a rejected ball that matches the stream's templates at 0.75 of \
        their reference is given back: 52 of 68 within 10 ms with 1 other report, 50 at 0.8 (the share until the \
        fourteenth session)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func rallyAtZeroDBTemplatesNearerReference() throws {
        // With the learned recovery off: it gives back the same balls when the templates do not.
        try CorpusFile.expectRule(on: CorpusFile.rallyAtZeroDB(seed: 12, source: "csmash"), off: "tplaccept=0.8",
                                  base: "model=0", labels: 68, found: 52..., falseReports: ...1, foundWithout: ...50,
                                  falseWithout: Self.anyCount, named: ("at 0.75", "at 0.8"))
    }

    @Test("""
        a rally at 0 dB (csmash, tuning seed 11, 60 s): the learned recovery gives back balls the rules rejected in the \
        loud room: 69 of 79 within 10 ms with 2 other reports, 64 with 1 without it (model=0)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func rallyAtZeroDBLearnedRecovery() throws {
        try CorpusFile.expectRule(on: CorpusFile.rallyAtZeroDB(seed: 11, source: "csmash"), off: "model=0",
                                  labels: 79, found: 68..., falseReports: ...3, foundWithout: ...64,
                                  falseWithout: Self.anyCount, named: ("with the recovery", "without it"))
    }

    @Test("""
        the varied tuning source (csmash's two recordings as five takes coloured apart): its labels sit on the clicks, \
        and it is refused for a held-out seed or split, or the independent split, as the swapped and freesound \
        sources are
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func variedSource() throws {
        let folder = try Self.verifiedSeed(11, source: "varied")
        defer { try? FileManager.default.removeItem(at: folder) }
        for source in ["varied", "swapped", "freesound"] {
            for refused in [["--seed", "21"], ["--split", "heldout"], ["--split", "independent"]] {
                let run = try ToolRun.run(Self.python, [Self.script, "--source", source, "--out", folder.path] + refused)
                #expect(run.status == 2 && (run.stderr.contains("tuning seeds only") || run.stderr.contains("heldout splits")),
                        "\(source) \(refused): \(run.status) \(run.stderr)")
            }
        }
    }

    @Test("""
        the freesound tuning source (a second real ball, committed under Benchmarks/Data/freesound): its labels sit on \
        the clicks, its rally has table bounces and racket hits, and a held-out seed is refused (in variedSource)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func freesoundSource() throws {
        let folder = try Self.verifiedSeed(12, source: "freesound")
        defer { try? FileManager.default.removeItem(at: folder) }
        let labels = try String(contentsOf: folder.appendingPathComponent("real12_freesound_rally_events.csv"),
                                encoding: .utf8).split(whereSeparator: \.isNewline).dropFirst()
        #expect(labels.contains { $0.contains(",bounce,") } && labels.contains { $0.contains(",hit,") })
    }

    @Test("""
        another real table's broadband tock at 10 dB (the freesound tuning source's seed 11): every ball found within \
        5 ms and nothing else, where the clear rule's tonality alone (cpflat=0) lost 14 of its table bounces
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func broadbandTableAtTenDB() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 11, seconds: 60, source: "freesound", condition: "snr10",
                                                 part: "rally", window: 0.005),
                                  off: "cpflat=0", labels: 79, found: 79...79, falseReports: 0...0, foundWithout: ...66,
                                  falseWithout: Self.anyCount, named: ("with the relief", "without it"))
    }

    @Test("""
        balls dropped near a phone whose AGC lifted a quiet room (the freesound tuning source's seed 14, 30 s, clean): \
        111 of 113 bounces within 2 ms; without the clipped-onset rule (clip=0) its clipped early bounces are lost
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func clippedDroppedBalls() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 14, seconds: 60, source: "freesound"), off: "clip=0,runclip=0",
                                  labels: 113, found: 111..., falseReports: ...3, foundWithout: ...107,
                                  falseWithout: Self.anyCount)
    }

    @Test("""
        balls dropped near a phone whose AGC lifted a quiet room so far that the first bounces' rings stay at the rail \
        (the freesound tuning source's seed 20, 30 s, clean): all 100 bounces within 2 ms; without the run's \
        clipped-bounce rule (runclip=0) the first drop is lost after its second bounce (93)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func clippedRingDrop() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 20, seconds: 60, source: "freesound"), off: "runclip=0",
                                  labels: 100, found: 100...100, falseReports: ...2, foundWithout: ...95,
                                  falseWithout: Self.anyCount)
    }

    @Test("""
        a dropped ball whose every bounce the phone clips (csmash, tuning seed 84 of tune7, 60 s, clean): its second \
        bounce clips anew for 58 % of its first 3 ms, so a due bounce clipping 55 % is the bounce (runclip 0.55): 108 \
        of 109 within 2 ms and no other report; at 0.6 the drop is lost after its first bounce until a rejected run \
        restarts it (102, 1 other)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func clippedDropSecondBounce() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 84, seconds: 60, source: "csmash"), off: "runclip=0.6",
                                  labels: 109, found: 108..., falseReports: ...1, foundWithout: ...103,
                                  falseWithout: Self.anyCount, named: ("at 0.55", "at 0.6"))
    }

    @Test("""
        a faint sound the learned recovery gave back 40 ms before a dropped ball's first bounce (csmash, tuning seed \
        51, 60 s, clean): the bounce, far louder, starts a run of its own instead of making a 40 ms run of two with \
        it, and the drop keeps its clock: 110 of 110 within 2 ms; 105 when it does not (runrestart=0)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func recoveredSoundBeforeADrop() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 51, seconds: 60, source: "csmash"), off: "runrestart=0",
                                  labels: 110, found: 110...110, falseReports: ...6, foundWithout: ...106,
                                  falseWithout: Self.anyCount, named: ("restarting", "continuing"))
    }

    @Test("""
        a late bounce timed on the ring's stirring 2 ms early, 12 dB under its neighbours, does not make the drop's \
        next bounce "far louder" than the run (csmash, tuning seed 98, 60 s, 20 dB): a run on its clock is broken \
        only by a candidate louder than its last two reports: 114 of 114 within 2 ms; 108 against the last alone \
        (runbreaktwo=0)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func runBrokenOnlyOverTwo() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 98, seconds: 60, source: "csmash", condition: "snr20"),
                                  off: "runbreaktwo=0", labels: 114, found: 114...114, falseReports: ...6,
                                  foundWithout: ...109, falseWithout: Self.anyCount,
                                  named: ("over the last two", "over the last"))
    }

    @Test("""
        a dropped ball whose restitution rises as it slows loses its fourth bounce; the fifth comes 259 ms after the \
        third, past a run's 250 ms, where its clock puts the bounce after a lost one (csmash, tuning seed 92, 60 s, \
        20 dB, restitution rise 0.04 and jitter 0.005): the run resumes there, 115 of 120 within 2 ms; 107 when it \
        does not (runresumelong=0), the whole drop after the lost bounce lost
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func runResumesPastItsLongestGap() throws {
        try CorpusFile.expectRule(on: CorpusFile.risingRestitutionDrop(seed: 92, condition: "snr20"),
                                  off: "runresumelong=0", labels: 120, found: 115..., falseReports: ...4,
                                  foundWithout: ...108, falseWithout: Self.anyCount,
                                  named: ("resuming", "not resuming"))
    }

    @Test("""
        the ring's stirring 7 ms ahead of a late bounce, a fifth of its gap off the run's clock, no longer triggers \
        on its prediction error and holds the bounce off (csmash, tuning seed 95, 60 s, clean, restitution rise \
        0.04 and jitter 0.005): 132 of 132 within 2 ms; 131 when it triggers anywhere the run continues \
        (runerrclock=0)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func ringErrorTriggersNearTheClock() throws {
        try CorpusFile.expectRule(on: CorpusFile.risingRestitutionDrop(seed: 95),
                                  off: "runerrclock=0", labels: 132, found: 132...132, falseReports: ...4,
                                  foundWithout: ...131, falseWithout: Self.anyCount,
                                  named: ("near the clock", "anywhere"))
    }

    @Test("""
        a loud drop's late bounces (csmash, tuning seed 94, 60 s, clean): a whole-band trigger on the ring's stirring a \
        few ms ahead of a bounce, rejected, moves to where the ring's prediction error rises, as a weak one does (83 \
        when only weak candidates move, runretimescope=0); and clipped bounces on the run's clock, one rising 6.3 dB \
        and one growing 0.3 dB (its first frames at the rail), are bounces at a bouncing ball's pace (84 on the rule's \
        old 8 dB and no growth, runclippaceattack=8,runclippacedecay=0): 86 of 87 within 2 ms. All without moving a \
        candidate ahead of the clock onto it (runearlyretime=0): since the eighteenth session that move takes one of \
        these bounces, 1.6 ms ahead of a clock the last report (1.9 ms late) biased, 1.6 ms later (85 as the detector \
        stands)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func loudDropLateAndClippedBounces() throws {
        let drop = try CorpusFile(seed: 94, seconds: 60, source: "csmash")
        defer { drop.remove() }
        try drop.expectRule(off: "runretimescope=0", base: "runearlyretime=0",
                            labels: 87, found: 86..., falseReports: ...3, foundWithout: ...84,
                            falseWithout: Self.anyCount, named: ("whole band too", "weak only"))
        try drop.expectRule(off: "runclippaceattack=8,runclippacedecay=0", base: "runearlyretime=0",
                            labels: 87, found: 86..., falseReports: ...3,
                            foundWithout: ...85, falseWithout: Self.anyCount, named: ("6 dB, 1 dB of growth", "8 dB, none"))
    }

    @Test("""
        clipped balls whose 3 ms before still touch the rail now and then, the last ball's ring at a phone whose AGC \
        lifted a quiet room (csmash, tuning seed 73, 60 s, clean rally): a clipped onset is an impact while the \
        stretch before it clipped at most an eighth as often: 77 of 80 within 2 ms; 75 at a twentieth (clipratio=20, \
        and the ringing onset's quarter off: clipringratio=0)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func clippedBallsAfterARing() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 73, seconds: 60, source: "csmash", part: "rally"),
                                  off: "clipratio=20,clipringratio=0", labels: 80, found: 77..., falseReports: ...22,
                                  foundWithout: ...76, falseWithout: Self.anyCount,
                                  named: ("an eighth", "a twentieth"))
    }

    @Test("""
        a drop's last bounce after a stirring the ring did not predict (csmash, tuning seed 91, 60 s, clean, \
        restitution as below): the whole-band trigger on the stirring 5 ms ahead, off the clock, was rejected as a \
        thud and its wait held the bounce's own trigger off; a rejected whole-band candidate in a run that has held \
        its clock moves to where the ring's prediction error rises after it, as a weak one does: 150 of 151 within \
        2 ms (149 before the ringing clipped onset), 149 when only weak ones move (runretimescope=1; and without \
        moving a candidate ahead of the clock onto it, runearlyretime, which since the eighteenth session finds it \
        too)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func rejectedStirringOffTheClockRetimed() throws {
        try CorpusFile.expectRule(on: CorpusFile.risingRestitutionDrop(seed: 91),
                                  off: "runretimescope=1,runearlyretime=0", labels: 151, found: 150...,
                                  falseReports: ...3,
                                  foundWithout: ...149, falseWithout: Self.anyCount,
                                  named: ("rejected whole-band ones too", "weak ones only"))
    }

    @Test("""
        a loud drop whose rings stay at the phone's rail (csmash, tuning seed 113, 60 s, clean): each late bounce, on \
        the run's clock, clips ever more as it grows, and was moved 5–6 ms on to where the rail held it more often, \
        decided there and rejected as faint, the run's clock lost with it; a candidate is never moved further off \
        the clock: 103 of 104 within 2 ms, 95 when it is (runclipretimeclock=0)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func clippedBounceKeptOnTheClock() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 113, seconds: 60, source: "csmash"),
                                  off: "runclipretimeclock=0", labels: 104, found: 103..., falseReports: ...0,
                                  foundWithout: ...96, falseWithout: Self.anyCount,
                                  named: ("kept on the clock", "moved wherever the clipping grows"))
    }

    @Test("""
        a loud drop whose clipped ring holds the rail (csmash, tuning seed 111, 60 s, clean, restitution as below): \
        its second and third bounces clip anew though the 3 ms before them clipped a sixth to a third as often, and \
        their rings, unlike a clap's, still hold the rail 6-8 ms on; a clipped onset is an impact then while the \
        stretch before it clipped at most a quarter as often: 127 of 129 within 2 ms, 125 without (clipringratio=0)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func clippedRingingBounces() throws {
        try CorpusFile.expectRule(on: CorpusFile.risingRestitutionDrop(seed: 111), off: "clipringratio=0", labels: 129,
                                  found: 127..., falseReports: ...0, foundWithout: ...125, falseWithout: Self.anyCount,
                                  named: ("a quarter, ringing", "an eighth"))
    }

    @Test("""
        a drop's last bounces at the floor heard first as the ring's stirring 2-4 ms ahead, which the ring did not \
        predict either (csmash, tuning seed 127, 60 s, clean, restitution as below): a candidate ahead of a held \
        clock by more than 4 % of its interval moves to where the ring's prediction error rises after it, when that \
        lies nearer the clock: 119 of 119 within 2 ms and 2 false reports, 118 and 4 without (runearlyretime=0)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func earlyStirringMovedOntoTheClock() throws {
        try CorpusFile.expectRule(on: CorpusFile.risingRestitutionDrop(seed: 127), off: "runearlyretime=0",
                                  labels: 119, found: 119..., falseReports: ...2, foundWithout: ...118,
                                  falseWithout: 4..., named: ("moved onto the clock", "taken where it stirred"))
    }

    @Test("""
        two balls in one stream (csmash's and freesound's recordings, tuning seed 14, 60 s rally, clean): a loud hit \
        of a timbre the stream's two shape templates do not hold, peaky and ringing down, keeps the rules any \
        candidate has: 73 of 73 within 2 ms and nothing else, 71 without (unlikepeaky=0)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func anotherBallsHitInAMixedStream() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 14, seconds: 60, source: "mixed", part: "rally"),
                                  off: "unlikepeaky=0", labels: 73, found: 73..., falseReports: ...0,
                                  foundWithout: ...71, falseWithout: Self.anyCount,
                                  named: ("rings like another ball", "unlike the stream"))
    }

    @Test("""
        a serve's first bounce, faint over the serve's ring (two balls in one stream, tuning seed 12, 60 s rally, \
        clean): taken where it is due, 68 of 68 within 2 ms and one false report; 67 without (serveattack=0)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func serveBounceInAMixedStream() throws {
        try CorpusFile.expectRule(on: CorpusFile(seed: 12, seconds: 60, source: "mixed", part: "rally"),
                                  off: "serveattack=0", labels: 68, found: 68..., falseReports: ...1,
                                  foundWithout: ...67, falseWithout: Self.anyCount,
                                  named: ("the serve's bounce rule", "without it"))
    }

    @Test("""
        two balls' tables and bats in one stream, each kind named by its nearest template (tuning seed 14, 60 s rally, \
        clean): 71 of 73 kinds right; with one template a kind (ktemplates=1, kuncertain=0) 55, its means lying \
        between the recordings
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func kindsOfAMixedStream() throws {
        let rally = try CorpusFile(seed: 14, seconds: 60, source: "mixed", part: "rally")
        defer { rally.remove() }
        let with = try rally.kinds([]), without = try rally.kinds(["--tune", "ktemplates=1,kuncertain=0"])
        #expect(with.matched == 73 && with.right >= 70, "a template per timbre \(with)")
        #expect(without.right <= 56, "one template a kind \(without)")
    }

    @Test("""
        a bat the stream has not shown yet, far from every template, named by the order of play (two balls in one \
        stream, tuning seed 11, 60 s rally, clean): 77 of 78 matched kinds right; by the nearer template \
        (kshown=0) 73
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func unshownTimbreInAMixedStream() throws {
        let rally = try CorpusFile(seed: 11, seconds: 60, source: "mixed", part: "rally")
        defer { rally.remove() }
        let with = try rally.kinds([]), without = try rally.kinds(["--tune", "kshown=0"])
        #expect(with.matched == 78 && with.right >= 76, "the order names it \(with)")
        #expect(without.right <= 74, "the nearer template \(without)")
    }

    /// real_corpus.py's restitution variant: a drop's gap ratio climbs 0.04 as it slows, jittered by 0.005.
    static let risingRestitution = ["--restitution-rise", "0.04", "--restitution-jitter", "0.005"]

    @Test("""
        the phone's output stage: by default a clipper, which pins a loud dropped ball near a phone whose AGC lifted \
        a quiet room to -3 dBFS for many samples; --limiter hold turns the gain down instead, so only the samples \
        that set it come near the limit (4.6 % of the clean drop within 1 % of it; 0.6 %)
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func holdLimiter() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("real-corpus-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var railShares: [String: Double] = [:]
        for limiter in ["clip", "hold"] {
            let out = folder.appendingPathComponent(limiter).path
            let made = try ToolRun.run(Self.python, [Self.script, "--seed", "11", "--dur", "12", "--opus", "0",
                                                     "--limiter", limiter, "--out", out])
            #expect(made.status == 0, "\(made.stderr)")
            let share = try ToolRun.run(Self.python, ["-c", """
                import numpy, soundfile, sys
                x, _ = soundfile.read(sys.argv[1])
                print(numpy.mean(numpy.abs(x) >= 0.99 * 10 ** (-3 / 20)))
                """, out + "/real11_drop_clean.wav"])
            railShares[limiter] = Double(share.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect((railShares["clip"] ?? 0) > 0.03, "clip \(railShares)")
        #expect((railShares["hold"] ?? 1) < 0.012, "hold \(railShares)")
    }

    @Test("""
        another table's serve bounces named by their timing before any serve has taught the kinds (the freesound \
        tuning source's seed 12, 60 s, clean rally): 65 of 68 kinds right; by the timbre rule until the first serve \
        has taught (kserve=0) 62, the first rally's two bounces called racket
        """, .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func serveBouncesNamedByTiming() throws {
        let rally = try CorpusFile(seed: 12, seconds: 60, source: "freesound", part: "rally")
        defer { rally.remove() }
        #expect(rally.labels.count == 68)
        let with = try rally.kinds([]), without = try rally.kinds(["--tune", "kserve=0"])
        #expect(with.matched == 68 && with.right >= 65, "with the timing \(with)")
        #expect(without.right <= 62, "by the timbre \(without)")
    }

    /// A 12 s seed of `source` made in a fresh temporary folder (the caller removes it), its labels checked on the
    /// clicks (`--verify`).
    static func verifiedSeed(_ seed: Int, source: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("real-corpus-\(UUID().uuidString)")
        let arguments = [script, "--seed", "\(seed)", "--source", source, "--dur", "12", "--opus", "0",
                         "--out", folder.path]
        let made = try ToolRun.run(python, arguments)
        #expect(made.status == 0, "\(made.stderr)")
        let verified = try ToolRun.run(python, arguments + ["--verify"])
        #expect(verified.status == 0 && verified.stdout.contains("0 off"), "\(verified.stdout)\(verified.stderr)")
        return folder
    }

    @Test("retune.py chooses on tuning splits only: a held-out or independent folder, or a source other than the tuning ones, is refused with a message")
    func retuneRefusesHeldOut() throws {
        let retune = Self.repository.appendingPathComponent("Benchmarks/Scripts/retune.py").path
        for spec in ["/nowhere:heldout", "/nowhere:independent", "/nowhere:tune:facepunch", "/a:b:c:d"] {
            let run = try ToolRun.run(Self.python, [retune, "pongd", "--corpus", spec])
            #expect(run.status == 1 && run.stderr.contains("retune: \(spec)"), "\(spec): \(run.status) \(run.stderr)")
        }
    }

    @Test("interference.py measures tuning seeds only: a held-out or independent seed is refused with a message")
    func interferenceRefusesHeldOut() throws {
        let tool = Self.repository.appendingPathComponent("Benchmarks/Scripts/interference.py").path
        for seed in [21, 22, 31] {
            let run = try ToolRun.run(Self.python, [tool, "--seed", "\(seed)"])
            #expect(run.status == 1 && run.stderr.contains("interference: seeds [\(seed)] are not tuning seeds"),
                    "\(seed): \(run.status) \(run.stderr)")
        }
    }

    /// real_corpus.py's dropped balls of one tuning seed (`--source swapped`: csmash's racket recording as the ball), in
    /// one condition (`clean`, `snr20`), and what `pongd detect` finds of them.
    /// Any count: what `CorpusFile.expectRule` is not asked to check.
    static let anyCount = Int.min...Int.max

    struct CorpusFile {
        let folder: URL
        let labels: [(time: Double, kind: String)]
        let wav: String
        /// How close to a label an impact must be to find it (s): the window for the file.
        let window: Double

        /// The seed's dropped balls (`part` "drop") or rallies ("rally") in one condition; `window` as the issue asks.
        /// `generator`: more of real_corpus.py's arguments (e.g. `--restitution-rise`).
        init(seed: Int, seconds: Int, source: String = "swapped", condition: String = "clean", part: String = "drop",
             window: Double = 0.002, generator: [String] = []) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("real-corpus-\(UUID().uuidString)")
            let made = try ToolRun.run(RealCorpusToolTests.python, [RealCorpusToolTests.script, "--seed", "\(seed)",
                                                                    "--source", source, "--dur", "\(seconds)",
                                                                    "--opus", "0", "--out", folder.path] + generator)
            #expect(made.status == 0, "\(made.stderr)")
            let prefix = "real\(seed)" + (source == "csmash" ? "" : "_" + source)
            labels = try RealCorpusToolTests.impacts(String(
                contentsOf: folder.appendingPathComponent("\(prefix)_\(part)_events.csv"), encoding: .utf8))
            wav = folder.appendingPathComponent("\(prefix)_\(part)_\(condition).wav").path
            self.window = window
        }

        /// A csmash seed's 60 s dropped balls whose gap ratio climbs as they slow (`risingRestitution`).
        static func risingRestitutionDrop(seed: Int, condition: String = "clean") throws -> CorpusFile {
            try CorpusFile(seed: seed, seconds: 60, source: "csmash", condition: condition,
                           generator: RealCorpusToolTests.risingRestitution)
        }

        /// A seed's 60 s rally at 0 dB, scored within 10 ms (the window there).
        static func rallyAtZeroDB(seed: Int, source: String) throws -> CorpusFile {
            try CorpusFile(seed: seed, seconds: 60, source: source, condition: "snr00", part: "rally", window: 0.010)
        }

        /// Expects the rule that `tune` turns off to matter on this file of `labels` labels: with it (the detector as
        /// it stands, or with `base` tuning) `found` of them found within `window` and `falseReports` other reports;
        /// without it `foundWithout` and `falseWithout`. `named` says which is which in the messages.
        func expectRule(off tune: String, base: String = "", labels: Int, found: some RangeExpression<Int>,
                        falseReports: some RangeExpression<Int>, foundWithout: some RangeExpression<Int>,
                        falseWithout: some RangeExpression<Int>,
                        named: (with: String, without: String) = ("with the rule", "without it"),
                        sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(self.labels.count == labels, sourceLocation: sourceLocation)
            let (with, without) = try foundWithAndWithout(tune, base: base)
            #expect(found.contains(with.found) && falseReports.contains(with.reported - with.found),
                    "\(named.with) \(with) of \(self.labels.count)", sourceLocation: sourceLocation)
            #expect(foundWithout.contains(without.found) && falseWithout.contains(without.reported - without.found),
                    "\(named.without) \(without)", sourceLocation: sourceLocation)
        }

        /// `expectRule` on `file`, which is removed after.
        static func expectRule(on file: CorpusFile, off tune: String, base: String = "", labels: Int,
                               found: some RangeExpression<Int>,
                               falseReports: some RangeExpression<Int>, foundWithout: some RangeExpression<Int>,
                               falseWithout: some RangeExpression<Int>,
                               named: (with: String, without: String) = ("with the rule", "without it"),
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
            defer { file.remove() }
            try file.expectRule(off: tune, base: base, labels: labels, found: found, falseReports: falseReports,
                                foundWithout: foundWithout, falseWithout: falseWithout, named: named,
                                sourceLocation: sourceLocation)
        }

        /// `found` as the detector stands (or with `base` tuning), and with `tune` too (the rule under test off).
        func foundWithAndWithout(_ tune: String, base: String = "") throws
            -> (with: (found: Int, reported: Int), without: (found: Int, reported: Int)) {
            (try found(base.isEmpty ? [] : ["--tune", base]), try found(["--tune", base.isEmpty ? tune : base + "," + tune]))
        }

        /// Labels matched within `window`, and impacts reported, with `extra` arguments to `pongd detect`.
        func found(_ extra: [String]) throws -> (found: Int, reported: Int) {
            let impacts = try detected(extra)
            return (labels.filter { label in impacts.contains { abs($0.time - label.time) <= window } }.count,
                    impacts.count)
        }

        /// Labels matched within `window` whose kind pongd named right, and labels matched, with `extra` arguments.
        func kinds(_ extra: [String]) throws -> (right: Int, matched: Int) {
            let impacts = try detected(extra)
            var right = 0, matched = 0
            for label in labels {
                guard let nearest = impacts.min(by: { abs($0.time - label.time) < abs($1.time - label.time) }),
                      abs(nearest.time - label.time) <= window else { continue }
                matched += 1
                if nearest.kind == label.kind { right += 1 }
            }
            return (right, matched)
        }

        /// What `pongd detect` reports on the file with `extra` arguments.
        private func detected(_ extra: [String]) throws -> [(time: Double, kind: String)] {
            let run = try ToolRun.run(ToolRun.pongd().path, ["detect", wav] + extra)
            #expect(run.status == 0, "\(run.stderr)")
            return RealCorpusToolTests.impacts(run.stdout)
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    /// `time,kind,…` rows (labels say bounce/hit, pongd says table/racket).
    static func impacts(_ csv: String) -> [(time: Double, kind: String)] {
        csv.split(whereSeparator: \.isNewline).compactMap { line in  // Python's csv ends rows with "\r\n"
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let time = Double(fields[0]) else { return nil }
            let kind = ["bounce": "table", "hit": "racket"][String(fields[1])] ?? String(fields[1])
            return (time, kind)
        }
    }
}
