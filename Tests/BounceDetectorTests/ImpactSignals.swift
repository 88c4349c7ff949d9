import Foundation

/// Deterministic noise for tests (xorshift64*).
struct TestNoise {
    private var state: UInt64
    init(seed: UInt64) { state = seed | 1 }

    /// Uniform in [-1, 1).
    mutating func next() -> Float {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        let value = state &* 2_685_821_657_736_338_717
        return Float(value >> 40) / Float(1 << 23) - 1
    }
}

/// Impacts and distractors shaped like the physics in the corpus generator, at any rate.
enum ImpactSignals {
    /// A ball impact: damped shell modes starting within 0.2 ms. `table` rings at 2.6/4.4/6.5 kHz with a board mode,
    /// a racket hit at 1.2/2.2/3.5 kHz with a low thud.
    static func impact(table: Bool, rate: Int, amplitude: Float = 0.3) -> [Float] {
        let modes: [(Double, Double, Float)] = table
            ? [(2600, 0.004, 1), (4400, 0.003, 0.7), (6500, 0.002, 0.5), (900, 0.008, 0.2)]
            : [(1200, 0.005, 1), (2200, 0.003, 0.6), (3500, 0.002, 0.3), (350, 0.010, 0.4)]
        let count = Int(0.06 * Double(rate))
        return (0..<count).map { i in
            let t = Double(i) / Double(rate)
            let ramp = Float(min(1, t / 0.0002))
            var y: Float = 0
            for (frequency, tau, gain) in modes {
                y += gain * Float(exp(-t / tau) * sin(2 * .pi * frequency * t + 0.3))
            }
            return amplitude * ramp * y / 2
        }
    }

    /// A hand clap: a burst of broadband noise, 0.5 ms attack, 6 ms decay — no resonances.
    static func clap(rate: Int, amplitude: Float = 0.3, seed: UInt64 = 7) -> [Float] {
        var noise = TestNoise(seed: seed)
        let count = Int(0.05 * Double(rate))
        return (0..<count).map { i in
            let t = Double(i) / Double(rate)
            let envelope = t < 0.0005 ? t / 0.0005 : exp(-(t - 0.0005) / 0.006)
            return amplitude * Float(envelope) * noise.next()
        }
    }

    /// `seconds` of low white noise (the room) with `events` added at their onset times.
    static func scene(seconds: Double, rate: Int, noise level: Float = 0.002, events: [(Double, [Float])]) -> [Float] {
        var random = TestNoise(seed: 42)
        var out = (0..<Int(seconds * Double(rate))).map { _ in level * random.next() }
        for (onset, sound) in events {
            let start = Int((onset * Double(rate)).rounded())
            for (i, x) in sound.enumerated() where start + i < out.count { out[start + i] += x }
        }
        return out
    }
}
