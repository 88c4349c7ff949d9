import Benchmark
import BounceDetector
import Foundation
import PongWire
import SessionHub

/// The cost of one phone's audio on the server, per 20 ms Opus packet: `AudioIngest` (decode, detector, timeline)
/// against libopus decoding alone — the floor of ingest — measured side by side in one run.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(3)
    )

    let packets = RallyPackets.make()

    Benchmark("Ingest: Opus packet → decode → detector (20 ms, mono)") { benchmark in
        let ingest = try AudioIngest(codec: .opus, preSkip: packets.preSkip)
        var detections = 0
        // Warm up past the detector's first quarter-second and fill the timeline's ring.
        for (index, packet) in packets.packets.prefix(100).enumerated() {
            _ = try packet.withUnsafeBytes { raw in
                try ingest.ingest(raw, codec: .opus, sequence: UInt32(index), captureTime: UInt64(index) * 20_000) { _ in
                    detections += 1
                }
            }
        }
        benchmark.startMeasurement()
        for iteration in benchmark.scaledIterations {
            let index = 100 + iteration
            _ = try packets.packets[index % packets.packets.count].withUnsafeBytes { raw in
                try ingest.ingest(raw, codec: .opus, sequence: UInt32(truncatingIfNeeded: index),
                                  captureTime: UInt64(index) * 20_000) { _ in detections += 1 }
            }
        }
        benchmark.stopMeasurement()
        blackHole(detections)
    }

    Benchmark("Opus decode alone (20 ms, mono): the floor") { benchmark in
        let decoder = try OpusPacketDecoder(sampleRate: 48000, channels: 1)
        benchmark.startMeasurement()
        for iteration in benchmark.scaledIterations {
            try packets.packets[iteration % packets.packets.count].withUnsafeBytes { raw in
                blackHole(try decoder.decode(raw))
            }
        }
    }
}

/// Ten seconds of a rally as a phone sends it: table bounces every 0.45 s over room noise and voices, 32 kb/s Opus.
enum RallyPackets {
    static func make() -> (packets: [[UInt8]], preSkip: Int) {
        let rate = 48000
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        var samples = (0..<(10 * rate)).map { i -> Float in
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            let noise = Float((state &* 2_685_821_657_736_338_717) >> 40) / Float(1 << 23) - 1
            let voice = 0.02 * Float(sin(2 * Double.pi * 180 * Double(i) / Double(rate)))
            return 0.01 * noise + voice
        }
        var onset = 0.3
        while onset < 9.9 {
            let start = Int(onset * Double(rate))
            for i in 0..<Int(0.05 * Double(rate)) where start + i < samples.count {
                let t = Double(i) / Double(rate)
                let y = exp(-t / 0.004) * sin(2 * .pi * 2600 * t) + 0.7 * exp(-t / 0.003) * sin(2 * .pi * 4400 * t)
                samples[start + i] += 0.2 * Float(y)
            }
            onset += 0.45
        }
        guard let encoder = try? OpusPacketEncoder(sampleRate: rate, channels: 1, bitrate: 32000) else { return ([], 0) }
        var packets: [[UInt8]] = []
        var start = 0
        while start + 960 <= samples.count {
            if let packet = try? encoder.encode(Array(samples[start..<(start + 960)])) { packets.append(packet) }
            start += 960
        }
        return (packets, encoder.lookahead)
    }
}
