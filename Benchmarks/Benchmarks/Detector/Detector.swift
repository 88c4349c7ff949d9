import Benchmark
import BounceDetector
import Foundation

/// The detector's hot path. One iteration = one hop of audio (64 samples at 48 kHz, 1.33 ms) through `process`,
/// over a signal with an impact every 250 ms so triggers, refinement and classification are all exercised.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(3)
    )

    /// 2 s of quiet noise with a ball-like impact every 250 ms.
    func rally(rate: Int) -> [Float] {
        var seed: UInt32 = 12345
        var out = (0..<(2 * rate)).map { _ -> Float in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return 0.003 * (Float(seed >> 8) / Float(1 << 24) - 0.5)
        }
        for start in stride(from: rate / 4, to: out.count - rate / 10, by: rate / 4) {
            for i in 0..<(rate / 20) {
                let t = Double(i) / Double(rate)
                let y = exp(-t / 0.004) * sin(2 * Double.pi * 3000 * t) + 0.6 * exp(-t / 0.003) * sin(2 * Double.pi * 4700 * t)
                out[start + i] += Float(0.2 * min(1, t / 0.0002) * y)
            }
        }
        return out
    }

    let audio48 = rally(rate: 48000)

    Benchmark("ImpactDetector.process, one 64-sample hop at 48 kHz mono") { benchmark in
        let detector = try ImpactDetector(format: AudioFormat(sampleRate: 48000, channels: 1))
        let hop = detector.parameters.hop
        var impacts = 0
        audio48.withUnsafeBufferPointer { all in
            var position = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                if position + hop > all.count { position = 0 }
                detector.process(UnsafeBufferPointer(rebasing: all[position..<(position + hop)])) { _ in impacts += 1 }
                position += hop
            }
            benchmark.stopMeasurement()
        }
        blackHole(impacts)
    }

    Benchmark("ImpactDetector.process, one 20 ms chunk (960 samples) at 48 kHz mono") { benchmark in
        let detector = try ImpactDetector(format: AudioFormat(sampleRate: 48000, channels: 1))
        var impacts = 0
        audio48.withUnsafeBufferPointer { all in
            var position = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                if position + 960 > all.count { position = 0 }
                detector.process(UnsafeBufferPointer(rebasing: all[position..<(position + 960)])) { _ in impacts += 1 }
                position += 960
            }
            benchmark.stopMeasurement()
        }
        blackHole(impacts)
    }
}
