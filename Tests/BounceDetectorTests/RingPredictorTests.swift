import Foundation
import Testing
@testable import BounceDetector

/// A bounce that rises out of the ring of the one before: the ring's linear prediction times it where the refiner's
/// sample rule (a multiple of the ring's RMS) cannot.
@Suite("Ring predictor")
struct RingPredictorTests {
    private let rate = 48000
    private let modes: [(frequency: Double, phase: Double)] = [(2150, 0.3), (3420, 1.9), (5230, 4.1)]

    /// Three damped modes (30 ms) struck at sample 0 with amplitude 1, struck again at `second` with `gain`, over
    /// white noise 80 dB under the first strike. Written into a ring as the detector's high-passed signal.
    private func ring(second: Int, gain: Double, length: Int) -> SampleRing {
        let ring = SampleRing(minimumCapacity: length)
        var noise = TestNoise(seed: 5)
        for n in 0..<length {
            var x = 0.0
            for strike in [(at: 0, gain: 1.0), (at: second, gain: gain)] where n >= strike.at {
                let t = Double(n - strike.at) / Double(rate)
                for mode in modes { x += strike.gain / 3 * exp(-t / 0.03) * sin(2 * .pi * mode.frequency * t + mode.phase) }
            }
            ring.write(Float(x) + 0.0001 * noise.next(), at: Int64(n))
        }
        return ring
    }

    /// The first strike's ring is at 0.26 of its start 40 ms on: the second strike starts 2 and 8 dB under it.
    @Test("a second strike 40 ms on, 2–8 dB under the ring it falls into: timed to 0.5 ms by prediction, not by the edge rule",
          arguments: [0.1, 0.2])
    func strikeInRing(gain: Double) {
        let second = rate * 40 / 1000
        let ring = ring(second: second, gain: gain, length: 8192)
        defer { ring.deallocate() }
        let predictor = RingPredictor(order: 16, fitLength: rate / 100)
        defer { predictor.deallocate() }
        // The detector's search region: the last frame and hop (320 samples) ending 160 samples after the strike,
        // searched from 3 ms earlier.
        let searchStart = Int64(second + 160 - 320)
        let onset = predictor.onset(in: ring, from: searchStart - 144, end: Int64(second + 160), window: 24, factor: 4)
        #expect(onset.map { abs($0 - Int64(second)) <= 24 } == true, "predicted \(String(describing: onset)) for \(second)")
        let edge = OnsetRefiner.edge(in: ring, searchStart: searchStart, searchEnd: Int64(second + 160), settings: .init(
            noiseSamples: 192, noiseFactor: 3, peakShare: 0.4, gapSamples: 29, maximumExtension: 29))
        #expect(edge.map { abs($0.onset - Int64(second)) > 96 } ?? true,
                "the edge rule alone: \(String(describing: edge?.onset)) for \(second)")
    }

    @Test("the ring alone, no second strike: the prediction error never rises")
    func ringAlone() {
        let ring = ring(second: Int.max / 2, gain: 0, length: 8192)
        defer { ring.deallocate() }
        let predictor = RingPredictor(order: 16, fitLength: rate / 100)
        defer { predictor.deallocate() }
        #expect(predictor.onset(in: ring, from: 1600, end: 2400, window: 24, factor: 4) == nil)
    }

    @Test("a strike 20 dB under the ring it falls into: its first 1.5 ms are 3 dB and more over the fit's error; the ring alone is not")
    func innovation() {
        let second = rate * 40 / 1000
        let struck = ring(second: second, gain: 0.026, length: 8192)  // 0.1 × the ring's 0.26 there: −20 dB
        let alone = ring(second: Int.max / 2, gain: 0, length: 8192)
        defer { struck.deallocate(); alone.deallocate() }
        let predictor = RingPredictor(order: 16, fitLength: rate / 100)
        defer { predictor.deallocate() }
        let lead = 96, length = 72  // 2 ms, 1.5 ms
        let strike = predictor.innovationDB(in: struck, onset: Int64(second), lead: lead, length: length) ?? -.infinity
        let ring = predictor.innovationDB(in: alone, onset: Int64(second), lead: lead, length: length) ?? .infinity
        #expect(strike >= 3 && ring < 3, "strike \(strike) dB, ring alone \(ring) dB")
    }

    /// White noise (the predictor can predict none of it: its fit error is the noise's power), then from `start` on
    /// `gain` times louder for `length` samples, then as before; `spike` adds one sample of that amplitude at
    /// `spikeAt`.
    private func excess(start: Int, gain: Float, length: Int, spike: (at: Int, amplitude: Float)? = nil) -> SampleRing {
        let ring = SampleRing(minimumCapacity: 4096)
        var noise = TestNoise(seed: 11)
        for n in 0..<4096 {
            var x = noise.next()
            if n >= start, n < start + length { x *= gain }
            if let spike, n == spike.at { x = spike.amplitude }
            ring.write(x, at: Int64(n))
        }
        return ring
    }

    @Test("an error 2.9 × the fit's for 2 ms: no 0.5 ms window clears 4² × it, the change point finds its start to 0.5 ms")
    func faintExcess() {
        let start = 2000
        let ring = excess(start: start, gain: 1.7, length: 96)
        defer { ring.deallocate() }
        let predictor = RingPredictor(order: 16, fitLength: 480)
        defer { predictor.deallocate() }
        #expect(predictor.onset(in: ring, from: 1700, end: 2200, window: 24, factor: 4) == nil)
        let onset = predictor.changePoint(in: ring, from: 1700, end: 2200, drift: 2, alarm: 40, cap: 10)
        #expect(onset.map { abs($0 - Int64(start)) <= 24 } == true, "change point \(String(describing: onset)) for \(start)")
    }

    @Test("the ring alone, or the noise alone: no change point")
    func noChangePoint() {
        let ring = ring(second: Int.max / 2, gain: 0, length: 8192)
        defer { ring.deallocate() }
        let noise = excess(start: 0, gain: 1, length: 0)
        defer { noise.deallocate() }
        let predictor = RingPredictor(order: 16, fitLength: rate / 100)
        defer { predictor.deallocate() }
        #expect(predictor.changePoint(in: ring, from: 1600, end: 2400, drift: 2, alarm: 40, cap: 10) == nil)
        #expect(predictor.changePoint(in: noise, from: 1000, end: 4000, drift: 2, alarm: 40, cap: 10) == nil)
    }

    @Test("one sample 30 × the noise's amplitude: uncapped it raises the alarm, capped at 10 × the fit's power it does not")
    func isolatedSpike() {
        let ring = excess(start: 0, gain: 1, length: 0, spike: (at: 2000, amplitude: 30 * 0.577))
        defer { ring.deallocate() }
        let predictor = RingPredictor(order: 16, fitLength: 480)
        defer { predictor.deallocate() }
        #expect(predictor.changePoint(in: ring, from: 1700, end: 2200, drift: 2, alarm: 40) != nil)
        #expect(predictor.changePoint(in: ring, from: 1700, end: 2200, drift: 2, alarm: 40, cap: 10) == nil)
    }
}
