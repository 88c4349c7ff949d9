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

    /// 4 s: a serve and its two bounces, then a ball dropped on the table (15 bounces from 190 ms apart, each gap
    /// ×0.85 and each bounce ×0.85 quieter), so the run rules, the ring predictor's trigger and the stream's kinds
    /// all run.
    func servesAndDrops(rate: Int) -> [Float] {
        var seed: UInt32 = 777
        var out = (0..<(4 * rate)).map { _ -> Float in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return 0.002 * (Float(seed >> 8) / Float(1 << 24) - 0.5)
        }
        func strike(at time: Double, gain: Double, frequencies: (Double, Double)) {
            let start = Int(time * Double(rate))
            for i in 0..<min(rate / 10, out.count - start) {
                let t = Double(i) / Double(rate)
                let y = exp(-t / 0.01) * sin(2 * Double.pi * frequencies.0 * t) + 0.6 * exp(-t / 0.006) * sin(2 * Double.pi * frequencies.1 * t)
                out[start + i] += Float(gain * min(1, t / 0.0002) * y)
            }
        }
        strike(at: 0.3, gain: 0.2, frequencies: (1800, 2600))
        strike(at: 0.48, gain: 0.2, frequencies: (3000, 4700))
        strike(at: 0.8, gain: 0.2, frequencies: (3000, 4700))
        var time = 1.8, gap = 0.19, gain = 0.3
        for _ in 0..<15 {
            strike(at: time, gain: gain, frequencies: (3000, 4700))
            time += gap
            gap *= 0.85
            gain *= 0.85
        }
        return out
    }

    let drops48 = servesAndDrops(rate: 48000)

    /// `audio` with a syllable of noise every 110 ms (60 ms long, rising over 5 ms, five levels from 0.02 to 0.06
    /// in turn): onsets the rules reject as faint or no ball, many a second.
    func withSyllables(_ audio: [Float], rate: Int) -> [Float] {
        var seed: UInt32 = 4242
        var out = audio
        let length = Int(0.06 * Double(rate)), rise = Float(0.005 * Double(rate))
        for (k, start) in stride(from: 0, to: out.count - rate / 10, by: Int(0.11 * Double(rate))).enumerated() {
            let gain = 0.02 + 0.04 * Float((k * 7) % 5) / 4
            for i in 0..<length {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                out[start + i] += gain * min(1, Float(i) / rise) * (Float(seed >> 8) / Float(1 << 24) - 0.5)
            }
        }
        return out
    }

    let talkedOver48 = withSyllables(drops48, rate: 48000)

    /// Feeds `audio` through `detector` in `chunk`-sample pieces, one piece per iteration (looping over the audio).
    @Sendable func measure(_ benchmark: Benchmark, _ detector: ImpactDetector, _ audio: [Float], chunk: Int) {
        var impacts = 0
        audio.withUnsafeBufferPointer { all in
            var position = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                if position + chunk > all.count { position = 0 }
                detector.process(UnsafeBufferPointer(rebasing: all[position..<(position + chunk)])) { _ in impacts += 1 }
                position += chunk
            }
            benchmark.stopMeasurement()
        }
        blackHole(impacts)
    }

    Benchmark("ImpactDetector.process, one hop of serves and a dropped ball at 48 kHz") { benchmark in
        let detector = try ImpactDetector(format: AudioFormat(sampleRate: 48000, channels: 1))
        measure(benchmark, detector, drops48, chunk: detector.parameters.hop)
    }

    // The learned recovery runs only in a loud room; here its gates are opened, and syllables of noise make many
    // candidates a second that the rules reject as faint or no ball, so that each goes through the bin-by-bin rise
    // and the networks (`pongd detect --candidates` on this signal: ~7 such candidates in each 4 s loop).
    Benchmark("ImpactDetector.process, one hop of serves, a dropped ball and syllables, every rejection through the learned recovery") { benchmark in
        let detector = try ImpactDetector(format: AudioFormat(sampleRate: 48000, channels: 1)) {
            $0.modelNoisyRoomDB = 100
            $0.modelMinimumBalls = 0
            $0.modelRunLength = 100
            $0.modelAfterReportSeconds = 0
        }
        measure(benchmark, detector, talkedOver48, chunk: detector.parameters.hop)
    }

    Benchmark("ImpactDetector.process, one 64-sample hop at 48 kHz mono") { benchmark in
        let detector = try ImpactDetector(format: AudioFormat(sampleRate: 48000, channels: 1))
        measure(benchmark, detector, audio48, chunk: detector.parameters.hop)
    }

    Benchmark("ImpactDetector.process, one 20 ms chunk (960 samples) at 48 kHz mono") { benchmark in
        let detector = try ImpactDetector(format: AudioFormat(sampleRate: 48000, channels: 1))
        measure(benchmark, detector, audio48, chunk: 960)
    }
}
