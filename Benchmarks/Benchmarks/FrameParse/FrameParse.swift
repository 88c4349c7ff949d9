import Benchmark
import PongWire

/// `MediaFrame.parse`, the first step of live ingest for every binary WebSocket message a phone sends.
/// One iteration = one parse of a whole frame (the header is read in place; the payload is not copied).
///
/// Frames rotate through 4 prepared copies with different sequence numbers, so the optimiser cannot hoist the parse
/// out of the loop; all of them are built before the measurement starts. Only 4: sixteen 20 KB arrays put their
/// headers in one L1 cache set (malloc stride ≈ 20 KB) and the figure would be cache conflicts, not parsing; a frame
/// just read from a socket is in cache. Scaling is `.mega` because `cpuTotal` is counted in 10 ms scheduler ticks.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        scalingFactor: .mega,
        maxDuration: .seconds(5)
    )

    /// 4 frames of `codec` carrying `payloadBytes` bytes each (a fixed byte pattern; parse never decodes it).
    func frames(_ codec: MediaFrame.Codec, payloadBytes: Int) -> [[UInt8]] {
        let payload = (0..<payloadBytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        return (0..<4).map { index in
            MediaFrame.encode(codec: codec, sequence: UInt32(index),
                              captureTime: 1_700_000_000_000_000 + UInt64(index) * 20_000, payload: payload)
        }
    }

    /// Parses `frames` round-robin, one per scaled iteration.
    func parseAll(_ frames: [[UInt8]], _ benchmark: Benchmark) throws {
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            try frames[index % frames.count].withUnsafeBytes { raw in
                blackHole(try MediaFrame.parse(raw))
            }
        }
    }

    // 60 bytes is one 20 ms Opus packet at 24 kb/s (74 bytes with the header).
    Benchmark("MediaFrame.parse, Opus 60-byte packet") { benchmark in
        try parseAll(frames(.opus, payloadBytes: 60), benchmark)
    }

    // 20 KB is a typical 720p H.264 access unit at a few Mb/s.
    Benchmark("MediaFrame.parse, H.264 20 KB access unit") { benchmark in
        try parseAll(frames(.h264, payloadBytes: 20 * 1024), benchmark)
    }
}
