import Foundation

/// Small synthetic signals and measurements shared by the tests.
enum Signals {
    /// A sine of `frequency` Hz, `seconds` long, at `amplitude`, mono.
    static func tone(_ frequency: Double, seconds: Double, rate: Int = 48000, amplitude: Float = 0.5) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { amplitude * Float(sin(2 * .pi * frequency * Double($0) / Double(rate))) }
    }

    /// Signal-to-noise ratio in dB of `decoded` against `reference`, after finding the best alignment
    /// within `maxLag` samples (codecs delay their output) and comparing `window` samples.
    static func snr(reference: [Float], decoded: [Float], maxLag: Int, skip: Int, window: Int) -> Double {
        var best = -Double.infinity
        for lag in 0...maxLag where skip + lag + window <= decoded.count && skip + window <= reference.count {
            var signal = 0.0
            var noise = 0.0
            for i in 0..<window {
                let r = Double(reference[skip + i])
                let d = Double(decoded[skip + lag + i])
                signal += r * r
                noise += (r - d) * (r - d)
            }
            best = max(best, 10 * log10(signal / max(noise, 1e-20)))
        }
        return best
    }

    /// Power of `frequency` in `samples` relative to total power (Goertzel), 0…1.
    static func toneShare(_ samples: ArraySlice<Float>, frequency: Double, rate: Int) -> Double {
        let w = 2 * Double.pi * frequency / Double(rate)
        var s1 = 0.0, s2 = 0.0, total = 0.0
        for x in samples {
            let s0 = Double(x) + 2 * cos(w) * s1 - s2
            s2 = s1
            s1 = s0
            total += Double(x) * Double(x)
        }
        let power = s1 * s1 + s2 * s2 - 2 * cos(w) * s1 * s2
        return 2 * power / (Double(samples.count) * max(total, 1e-20))
    }
}
