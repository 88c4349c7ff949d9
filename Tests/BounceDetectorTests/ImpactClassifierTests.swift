import Foundation
import Testing
@testable import BounceDetector

@Suite("Impact classifier and helpers")
struct ImpactClassifierTests {
    private let classifier = ImpactClassifier()
    private let ball = ImpactFeatures(snrDB: 20, centroidHz: 3800, tonality: 0.85, highShare: 0.1, decayDB: -12,
                                      attackDB: 15, peakContrastDB: 10, ringingTonality: 0.8, ringingContrastDB: 8,
                                      peakPersistence: 0.95, lineCoherence: 0.85)

    @Test("a bright, tonal, abrupt sound is a table bounce; a dull one a racket hit; in between, unknown")
    func kinds() {
        #expect(classifier.classify(ball)?.kind == .table)
        var dull = ball
        dull.centroidHz = 1500
        #expect(classifier.classify(dull)?.kind == .racket)
        var between = ball
        between.centroidHz = classifier.tableCentroidHz + 50
        #expect(classifier.classify(between)?.kind == .unknown)
    }

    @Test("a clap-like sound (noisy, broad peaks) is rejected however abrupt and loud it is")
    func clapRejected() {
        var clap = ImpactFeatures(snrDB: 30, centroidHz: 2500, tonality: 0.5, highShare: 0.1, decayDB: -6,
                                  attackDB: 35, peakContrastDB: 1, ringingContrastDB: 1, peakPersistence: 0.5,
                                  lineCoherence: 0.35)
        clap.risingBands = 7
        #expect(classifier.isImpulsive(clap))
        #expect(!classifier.isClearImpact(clap), "a band of noise is no clear impact however abrupt")
        #expect(classifier.resonanceProbability(clap) < classifier.acceptance)
        #expect(classifier.classify(clap) == nil)
    }

    /// csmash-data's real table bounce as the detector measured it at 48 kHz: a dull "tock" whose board rings on,
    /// in lines that neither stay put nor decay as free modes (persistence 0.28, coherence 0.10).
    private var realTable: ImpactFeatures {
        var features = ImpactFeatures(snrDB: 35, centroidHz: 1595, tonality: 0.905, highShare: 0.003, decayDB: -3.6,
                                      attackDB: 44, peakContrastDB: 2.4, ringingTonality: 0.71, ringingContrastDB: 2.7,
                                      peakPersistence: 0.28, lineCoherence: 0.10)
        features.risingBands = 7
        return features
    }

    @Test("a clear impact is a ball whatever its ringing: the real table bounce the resonance score rejects")
    func clearImpact() throws {
        #expect(classifier.resonanceProbability(realTable) < classifier.acceptance)
        #expect(classifier.isClearImpact(realTable))
        #expect(try #require(classifier.classify(realTable)).kind == .table, "a dull sound that rings on is a table")
        var racket = realTable
        racket.decayDB = -10.8
        #expect(classifier.classify(racket)?.kind == .racket, "a dull sound the rubber damps is a racket hit")
        var narrow = realTable
        narrow.risingBands = classifier.clearBands - 1
        #expect(!classifier.isClearImpact(narrow), "an onset in few bands is no clear impact")
    }

    @Test("""
        a real table's broadband tock (Freesound's table at 10 dB) is clear when its onset frame keeps valleys; as \
        flat as a clap's noise it must show the tonality asked of any clear onset
        """)
    func clearBroadbandTock() {
        // As the detector measured a missed bounce of real11_freesound_rally_snr10 (tonality 0.55, 7 bands).
        var tock = ImpactFeatures(snrDB: 19, centroidHz: 1730, tonality: 0.55, highShare: 0.06, decayDB: -18.9,
                                  attackDB: 24.9, peakContrastDB: 3, ringingTonality: 0.6, ringingContrastDB: 2.8,
                                  peakPersistence: 0.95, lineCoherence: 0.16)
        tock.risingBands = 7
        tock.flatnessDB = -8.5
        #expect(classifier.isClearImpact(tock))
        #expect(classifier.classify(tock) != nil)
        var flat = tock
        flat.flatnessDB = -3.5  // the claps the tuning rallies' clear rule met: -2 ... -4.5 dB
        #expect(!classifier.isClearImpact(flat))
        var unmeasured = tock
        unmeasured.flatnessDB = -.infinity
        #expect(!classifier.isClearImpact(unmeasured), "no relief on a flatness never measured")
        var off = classifier
        off.clearPeakyFlatnessDB = 0
        #expect(!off.isClearImpact(tock), "without the relief the tock is no clear impact (what was missed)")
    }

    @Test("a clear impact in a live room, its ring held by reflections and a limiter, is one; a thud under 1.2 kHz is not")
    func clearImpactInALiveRoom() {
        var held = realTable
        held.decayDB = -0.2  // measured on real_corpus's first bounces after silence (AGC up, limiter on)
        #expect(classifier.classify(held) != nil, "rejected as a sustained sound before clearDecayDB")
        held.decayDB = classifier.clearDecayDB + 1
        #expect(classifier.classify(held) == nil, "a sound that grows is no impact however clear its onset")
        var thud = realTable
        thud.centroidHz = 860  // a footstep's excess over the 700 Hz high-pass
        #expect(!classifier.isClearImpact(thud))
        var faint = realTable
        faint.decayDB = -0.2
        faint.attackDB = classifier.clearAttackDB - 1
        #expect(classifier.classify(faint) == nil, "only a clear impact may hold its ring")
    }

    @Test("a faint real ball the resonance score doubts is a struck object: few lines, kept, in many bands; a clap is not")
    func struckObject() throws {
        // A real table bounce at 0 dB SNR (real_corpus.py tuning files): not clear, lines that neither stay put
        // nor decay as free modes.
        var faint = realTable
        faint.attackDB = 11
        faint.tonality = 0.88
        faint.ringingTonality = 0.82
        faint.peakPersistence = 0.6
        faint.lineCoherence = 0.25
        faint.risingBands = 6
        #expect(!classifier.isClearImpact(faint))
        #expect(classifier.resonanceProbability(faint) < classifier.acceptance)
        #expect(classifier.struckProbability(faint) >= classifier.struckAcceptance)
        #expect(classifier.classify(faint) != nil)
        var clap = faint
        clap.tonality = 0.66
        clap.ringingTonality = 0.68
        #expect(classifier.classify(clap) == nil, "a band of noise, however broadband its onset")
        var note = faint
        note.risingBands = 2
        #expect(classifier.classify(note) == nil, "a tone that rose in two bands")
    }

    @Test("the tonality a clear impact needs falls as its attack grows, from clearTonality to veryClearTonality")
    func clearTonalityCurve() {
        var features = realTable
        features.attackDB = classifier.clearAttackDB
        features.tonality = classifier.clearTonality - 0.01
        #expect(!classifier.isClearImpact(features))
        features.attackDB = classifier.veryClearAttackDB
        #expect(classifier.isClearImpact(features))
        features.tonality = classifier.veryClearTonality - 0.01
        #expect(!classifier.isClearImpact(features))
        features.attackDB = classifier.clearAttackDB - 0.5
        features.tonality = 1
        #expect(!classifier.isClearImpact(features), "under the clear attack, resonance decides")
    }

    @Test("hi-hat-like, soft-onset and sustained sounds are not impacts")
    func rejections() {
        var hiHat = ball
        hiHat.highShare = 0.9
        #expect(classifier.classify(hiHat) == nil)
        var soft = ball
        soft.attackDB = 5
        #expect(classifier.classify(soft) == nil)
        var sustained = ball
        sustained.decayDB = 8
        #expect(classifier.classify(sustained) == nil)
    }

    @Test("more tonal, longer-ringing, steadier and more coherent peaks all raise the resonance probability")
    func monotonic() {
        let base = classifier.resonanceProbability(ball)
        var moreTonal = ball
        moreTonal.tonality = 0.95
        var steadier = ball
        steadier.peakPersistence = 1
        var ringing = ball
        ringing.ringingContrastDB += 3
        var coherent = ball
        coherent.lineCoherence = 0.95
        var louder = ball
        louder.snrDB += 20
        for better in [moreTonal, steadier, ringing, coherent] {
            #expect(classifier.resonanceProbability(better) > base)
        }
        #expect(classifier.resonanceProbability(louder) == base, "loudness alone never makes a ball")
    }

    @Test("the attack gate follows the stream's typical ball, between its floor and its ceiling")
    func attackGate() {
        #expect(classifier.attackGate(typicalAttackDB: 30) == classifier.minimumAttackDB)
        #expect(classifier.attackGate(typicalAttackDB: 0) == classifier.attackFloorDB)
        let middle = (classifier.attackFloorDB + classifier.minimumAttackDB) / 2
        #expect(classifier.attackGate(typicalAttackDB: classifier.attackBelowTypicalDB + middle) == middle)
    }

    @Test("confidence is in 0…1 and grows with the attack's clearance")
    func confidence() throws {
        var faint = ball
        faint.attackDB = classifier.minimumAttackDB + 1
        let strong = try #require(classifier.classify(ball)).confidence
        let weak = try #require(classifier.classify(faint)).confidence
        #expect(strong > weak)
        #expect(strong <= 1 && weak > 0)
    }

    @Test("fastLog matches log over many decades")
    func fastLogAccuracy() {
        for exponent in stride(from: -30.0, through: 30.0, by: 0.37) {
            let x = Float(pow(10, exponent))
            #expect(abs(fastLog(x) - Float(log(Double(x)))) < 1e-4)
        }
    }

    @Test("fastLog of eight lanes is the scalar fastLog bit for bit (the flux's detections must not move)")
    func fastLogLanes() {
        var x = SIMD8<Float>()
        for start in stride(from: -30.0, through: 30.0, by: 0.61) {
            for lane in 0..<8 { x[lane] = Float(pow(10, start + 0.07 * Double(lane))) }
            let lanes = fastLog(x)
            for lane in 0..<8 { #expect(lanes[lane].bitPattern == fastLog(x[lane]).bitPattern, "\(x[lane])") }
        }
    }

    @Test("parameters follow the sample rate: ~5 ms frames, quarter-frame hops, band inside Nyquist")
    func parameters() {
        let p48 = DetectorParameters(sampleRate: 48000)
        #expect(p48.fftSize == 256 && p48.hop == 64)
        let p16 = DetectorParameters(sampleRate: 16000)
        #expect(p16.fftSize == 64 && p16.bandBins.upperBound <= 32)
        #expect(DetectorParameters(sampleRate: 44100).fftSize == 256)
    }

    @Test("onset bands: a click in noise rises in every band, a steady tone in none; the attack is the second band")
    func onsetBands() {
        let rate = 48_000
        let ring = SampleRing(minimumCapacity: 4096)
        defer { ring.deallocate() }
        let bands = OnsetBands(sampleRate: rate)
        var seed: UInt32 = 1
        func noise() -> Float {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return (Float(seed >> 8) / Float(1 << 24) - 0.5) * 0.002
        }
        let onset: Int64 = 2000
        // A click: a decaying broadband burst over faint noise.
        for i in 0..<Int64(2600) {
            var x = noise()
            if i >= onset { x += Float(i == onset ? 1 : 0) + 0.3 * noise() * 500 * exp(-Float(i - onset) / 48) }
            ring.write(x, at: i)
        }
        let click = bands.measure(at: onset, raw: ring)
        #expect(bands.bands == 7)
        #expect(click.risingBands(atLeast: 6) == bands.bands)
        #expect(click.attackDB > 20)
        // A 1.2 kHz tone that was already sounding and keeps on: nothing rises.
        for i in 0..<Int64(2600) {
            ring.write(noise() + 0.5 * sin(2 * Float.pi * 1200 * Float(i) / Float(rate)), at: i)
        }
        let tone = bands.measure(at: onset, raw: ring)
        #expect(tone.risingBands(atLeast: 6) == 0)
        #expect(abs(tone.attackDB) < 3)
        // A 3.5 kHz note fading in over 1 ms at the onset, 8 dB over a loud room: it rises in its own band (and its
        // neighbours through the filters' skirts) but not across the spectrum; its attack is the second band's rise.
        for i in 0..<Int64(2600) {
            let t = Float(i - onset) / Float(rate)
            let fade = min(1, max(0, t / 0.001))
            ring.write(250 * noise() + fade * 0.5 * sin(2 * Float.pi * 3500 * t), at: i)
        }
        let note = bands.measure(at: onset, raw: ring)
        let sorted = (0..<bands.bands).map { note.attack[$0] }.sorted(by: >)
        #expect(note.attackDB == sorted[1])
        #expect(sorted[0] > sorted[1])
        #expect(note.risingBands(atLeast: 6) <= 3)
    }

    @Test("onset bands at 16 kHz keep only the bands that start well under 0.45 × the rate")
    func onsetBandsLowRate() {
        let bands = OnsetBands(sampleRate: 16_000)
        #expect(bands.bands == 6)
        let ring = SampleRing(minimumCapacity: 2048)
        defer { ring.deallocate() }
        for i in 0..<Int64(1200) { ring.write(i >= 800 ? (i == 800 ? 1 : 0) : 0, at: i) }
        let impulse = bands.measure(at: 800, raw: ring)
        #expect(impulse.risingBands(atLeast: 6) == 6)
        #expect(impulse.attack[6].isInfinite && impulse.attack[6] < 0)
    }

    @Test("""
        the denser clipping: in a ring pinned to the rail at its peaks, the bounce that holds it there for milliseconds \
        is found within a millisecond of its onset; an onset already clipped that often, a ring that never \
        clips more densely, and a signal under any rail find none
        """)
    func denserClipping() {
        let ring = SampleRing(minimumCapacity: 8192)
        defer { ring.deallocate() }
        let rate: Float = 48000, span = 144
        let start = 4000, bounce = 4000 + 130  // the bounce 2.7 ms after the candidate
        /// A 1.8 kHz ring whose peaks touch the rail (0.7), and from `bounce` on (if any) a burst 1.5x over it.
        func write(ringPeak: Float, bounce: Int?) {
            for i in 0..<8192 {
                let t = Float(i) / rate
                var x = ringPeak * sin(2 * .pi * 1800 * t)
                if let bounce, i >= bounce {
                    let u = Float(i - bounce) / rate
                    x += 1.5 * exp(-u / 0.01) * sin(2 * .pi * 2600 * u + 0.4)
                }
                ring.write(max(-0.7, min(0.7, x)), at: Int64(i))
            }
        }
        func found(_ onset: Int) -> Int64? {
            FeatureExtractor.denserClipping(ring, onset: Int64(onset), end: Int64(onset + 384), span: span,
                                            rise: 0.1, least: 0.4)
        }
        write(ringPeak: 0.72, bounce: bounce)
        let moved = found(start)
        #expect(moved.map { abs($0 - Int64(bounce)) <= 48 } == true, "found at \(String(describing: moved))")
        #expect(found(bounce) == nil, "the bounce's own onset clips already")
        write(ringPeak: 0.72, bounce: nil)
        #expect(found(start) == nil, "the ring alone")
        write(ringPeak: 0.05, bounce: nil)
        #expect(found(start) == nil, "under any rail")
    }

    @Test("""
        the clipped shares: a burst pinned to the rail sits there for most of its first 3 ms and the quiet before it \
        never; a ringing sine peaks near its crest a few samples a period; inside a stretch already clipped the 3 ms \
        before clipped as often, and the clipped-onset rule's test (a twentieth as often) fails
        """)
    func clippedShare() {
        let ring = SampleRing(minimumCapacity: 8192)
        defer { ring.deallocate() }
        let rate: Float = 48000, span = 144
        func write(_ signal: (Int) -> Float) {
            for i in 0..<8192 { ring.write(signal(i), at: Int64(i)) }
        }
        let onset = 4000
        // Quiet, then a 2 kHz burst at 4x the rail, clipped, decaying over 20 ms.
        write { i in
            guard i >= onset else { return 0.001 * sin(Float(i)) }
            let t = Float(i - onset) / rate
            return max(-0.7, min(0.7, 4 * exp(-t / 0.02) * sin(2 * .pi * 2000 * t + 0.3)))
        }
        let burst = FeatureExtractor.clippedShares(ring, onset: Int64(onset), span: span)
        #expect(burst.after > 0.6 && burst.before == 0)
        let inside = FeatureExtractor.clippedShares(ring, onset: Int64(onset + 2 * span), span: span)
        #expect(inside.before > 0.3, "already at the rail before")
        var features = ImpactFeatures(snrDB: 40, centroidHz: 2000, tonality: 0.5, highShare: 0, decayDB: -3,
                                      attackDB: 10)
        (features.clippedShare, features.clippedBeforeShare) = burst
        #expect(features.clipsAnew(share: 0.5, ratio: 20))
        (features.clippedShare, features.clippedBeforeShare) = inside
        #expect(!features.clipsAnew(share: 0.5, ratio: 20))
        // The same burst within range: a ring, not a rail.
        write { i in
            guard i >= onset else { return 0.001 * sin(Float(i)) }
            let t = Float(i - onset) / rate
            return 0.6 * exp(-t / 0.02) * sin(2 * .pi * 2000 * t + 0.3)
        }
        #expect(FeatureExtractor.clippedShares(ring, onset: Int64(onset), span: span).after < 0.1)
        // A tick of a least step or two after digital silence: quantisation puts most samples at its crest, but a
        // rail lies near full scale.
        write { i in
            guard i >= onset else { return 0 }
            let t = Float(i - onset) / rate
            return (1.2 * exp(-t / 0.02) * sin(2 * .pi * 2000 * t + 0.3)).rounded() / 32768
        }
        #expect(FeatureExtractor.clippedShares(ring, onset: Int64(onset), span: span) == (0, 0), "a quiet tick is no rail")
    }
}
