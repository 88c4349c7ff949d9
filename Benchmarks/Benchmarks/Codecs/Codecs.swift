import Benchmark
import BounceDetector
import Foundation

/// Decode costs: the floor under live ingest. One iteration = one packet / frame.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(3)
    )

    let tone = (0..<48000).map { 0.3 * Float(sin(2 * Double.pi * 1000 * Double($0) / 48000)) }

    Benchmark("Opus decode 20 ms mono packet (24 kb/s)") { benchmark in
        let encoder = try OpusPacketEncoder(bitrate: 24000)
        let packets = try (0..<50).map { try encoder.encode(Array(tone[($0 * 960)..<(($0 + 1) * 960)])) }
        let decoder = try OpusPacketDecoder()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            try packets[index % packets.count].withUnsafeBytes { raw in
                blackHole(try decoder.decode(raw))
            }
        }
    }

    Benchmark("Opus encode 20 ms mono frame (24 kb/s)") { benchmark in
        let encoder = try OpusPacketEncoder(bitrate: 24000)
        let frames = (0..<50).map { Array(tone[($0 * 960)..<(($0 + 1) * 960)]) }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            blackHole(try encoder.encode(frames[index % frames.count]))
        }
    }
}
