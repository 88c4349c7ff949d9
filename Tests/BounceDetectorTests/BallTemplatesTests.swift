import Foundation
import Testing
@testable import BounceDetector

/// The stream's own balls as waveform templates: a faint ball, struck a little higher, matches the loud ones it was
/// learned from through the room's noise; a noise burst and the room alone do not.
@Suite("Ball templates")
struct BallTemplatesTests {
    private let rate = 48000
    private let modes: [(frequency: Double, phase: Double)] = [(1650, 0.3), (2420, 1.9), (3730, 4.1)]

    /// A struck ball: three damped modes (8 ms), pitched by `pitch`.
    private func ball(_ n: Int, pitch: Double) -> Double {
        let t = Double(n) / Double(rate)
        return modes.reduce(0) { $0 + exp(-t / 0.008) * sin(2 * .pi * $1.frequency * pitch * t + $1.phase) } / 3
    }

    /// Two seconds of a room (white noise through a one-pole low-pass: most of its power low, as babble's) at
    /// `roomRMS`, with `events` (sample, what) written over it, as the detector's high-passed ring.
    private func scene(roomRMS: Double, events: [(at: Int, sound: (Int) -> Double)]) -> SampleRing {
        let length = 2 * rate
        let ring = SampleRing(minimumCapacity: length)
        var noise = TestNoise(seed: 9)
        var low = 0.0
        for n in 0..<length {
            low = 0.9 * low + 0.1 * Double(noise.next())
            var x = roomRMS * low / 0.23  // the one-pole's output RMS for unit white noise: sqrt(0.01 / 0.19)
            for event in events where n >= event.at && n < event.at + rate / 20 { x += event.sound(n - event.at) }
            ring.write(Float(x), at: Int64(n))
        }
        return ring
    }

    private func templates() -> BallTemplates {
        BallTemplates(capacity: 8, length: rate * 65 / 10000, lead: rate / 1000, lag: rate / 500,
                      rates: [0.96, 0.98, 1, 1.02, 1.04], fitLength: rate / 25)
    }

    @Test("""
        a ball 26 dB under the three it was learned from, struck 3 % higher, matches them through the room (cosine \
        over 0.5); a noise burst as loud and the room alone do not (under 0.3); the loud ones match each other (the \
        reference, over 0.8)
        """)
    func faintBallMatches() {
        var burstNoise = TestNoise(seed: 3)
        let burst: (Int) -> Double = { n in 0.5 * exp(-Double(n) / Double(48000 / 200)) * Double(burstNoise.next()) }
        let ring = scene(roomRMS: 0.01, events: [
            (rate / 5, { ball($0, pitch: 1) }), (rate * 2 / 5, { ball($0, pitch: 0.99) }),
            (rate * 3 / 5, { ball($0, pitch: 1.01) }),
            (rate, { 0.05 * ball($0, pitch: 1.03) }), (rate * 3 / 2, burst),
        ])
        defer { ring.deallocate() }
        let bank = templates()
        #expect(bank.match(at: Int64(rate), ring: ring) == nil, "no template yet")
        for onset in [rate / 5, rate * 2 / 5, rate * 3 / 5] { bank.learn(at: Int64(onset), ring: ring) }
        #expect(bank.stored == 3)
        let reference = bank.reference(minimum: 2)
        #expect(reference.map { $0 > 0.8 } == true, "reference \(String(describing: reference))")
        #expect(bank.reference(minimum: 3) == nil, "two templates have a score: the first had none to match")
        let faint = bank.match(at: Int64(rate), ring: ring) ?? 0
        #expect(faint > 0.5, "the faint ball: \(faint)")
        let noise = bank.match(at: Int64(rate * 3 / 2), ring: ring) ?? 1
        #expect(noise < 0.3, "the burst: \(noise)")
        let room = bank.match(at: Int64(rate * 9 / 5), ring: ring) ?? 1
        #expect(room < 0.3, "the room: \(room)")
    }

    @Test("the rates matched: 1 ± the spread in steps either side (0.96 … 1.04 by default), or 1 alone; a spread within 0 … 0.5, steps within 16")
    func rates() {
        let parameters = DetectorParameters(sampleRate: 48000)
        let rates = BallTemplates.rates(spread: parameters.templateRateSpread, steps: parameters.templateRateSteps)
        #expect(rates.count == 5)
        for (rate, expected) in zip(rates, [0.96, 0.98, 1, 1.02, 1.04]) { #expect(abs(rate - expected) < 1e-12) }
        #expect(BallTemplates.rates(spread: 0.04, steps: 0) == [1])
        // A spread from `--tune tplspread=…` past 1 would make a rate of 0 or less (a division by it in init).
        #expect(BallTemplates.rates(spread: 1.5, steps: 1) == [0.5, 1, 1.5])
        #expect(BallTemplates.rates(spread: -1, steps: 1) == [1, 1, 1])
        #expect(BallTemplates.rates(spread: 0.04, steps: 1_000_000_000).count == 33, "steps within 16")
    }

    @Test("the bank keeps the most recent templates: past its capacity the oldest are forgotten")
    func capacity() {
        // Four balls, four struck 20 % higher (beyond the rate copies' reach), then one of each to probe.
        let pitches = [1.0, 1, 1, 1, 1.2, 1.2, 1.2, 1.2, 1, 1.2]
        let ring = scene(roomRMS: 0.01, events: pitches.enumerated().map { k, pitch in
            (rate * (k + 1) / 6, { ball($0, pitch: pitch) })
        })
        defer { ring.deallocate() }
        let bank = BallTemplates(capacity: 4, length: 312, lead: 48, lag: 96, rates: [1], fitLength: 1920)
        let probeFirst = Int64(rate * 9 / 6), probeSecond = Int64(rate * 10 / 6)
        for k in 1...4 { bank.learn(at: Int64(rate * k / 6), ring: ring) }
        let before = (bank.match(at: probeFirst, ring: ring) ?? 0, bank.match(at: probeSecond, ring: ring) ?? 1)
        #expect(before.0 > 0.9 && before.1 < before.0, "the first four: \(before)")
        for k in 5...8 { bank.learn(at: Int64(rate * k / 6), ring: ring) }
        #expect(bank.stored == 4)
        let after = (bank.match(at: probeFirst, ring: ring) ?? 1, bank.match(at: probeSecond, ring: ring) ?? 0)
        #expect(after.1 > 0.9 && after.0 < after.1, "the last four: \(after)")
        #expect(bank.reference(minimum: 4).map { $0 > 0.9 } == true)
    }
}
