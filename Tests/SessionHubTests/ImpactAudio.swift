import BounceDetector
import Foundation

/// Synthetic microphone audio for ingest tests: table-tennis ball impacts (damped shell modes that reach full
/// amplitude within 0.2 ms) over a quiet room, encoded to 20 ms Opus packets the way a phone sends them.
enum ImpactAudio {
    static let rate = 48000

    /// `seconds` of a quiet room (noise at −54 dBFS) with a table bounce at each of `onsets` (seconds).
    static func scene(seconds: Double, onsets: [Double]) -> [Float] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var samples = (0..<Int(seconds * Double(rate))).map { _ -> Float in
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return 0.002 * (Float((state &* 2_685_821_657_736_338_717) >> 40) / Float(1 << 23) - 1)
        }
        let modes: [(frequency: Double, decay: Double, gain: Float)] =
            [(2600, 0.004, 1), (4400, 0.003, 0.7), (6500, 0.002, 0.5), (900, 0.008, 0.2)]
        for onset in onsets {
            let start = Int((onset * Double(rate)).rounded())
            for i in 0..<Int(0.06 * Double(rate)) where start + i < samples.count {
                let t = Double(i) / Double(rate)
                var y: Float = 0
                for mode in modes { y += mode.gain * Float(exp(-t / mode.decay) * sin(2 * .pi * mode.frequency * t + 0.3)) }
                samples[start + i] += 0.15 * Float(min(1, t / 0.0002)) * y
            }
        }
        return samples
    }

    /// The scene as 20 ms Opus packets (32 kb/s) and the encoder's delay (the stream's `preSkip`).
    static func opusPackets(_ samples: [Float]) throws -> (packets: [[UInt8]], preSkip: Int) {
        let encoder = try OpusPacketEncoder(sampleRate: rate, channels: 1, bitrate: 32000)
        var packets: [[UInt8]] = []
        var start = 0
        while start + 960 <= samples.count {
            packets.append(try encoder.encode(Array(samples[start..<(start + 960)])))
            start += 960
        }
        return (packets, encoder.lookahead)
    }
}
