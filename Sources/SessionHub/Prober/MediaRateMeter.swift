import PongWire

/// A stream's media upload rate over a sliding window, from frame arrivals (DESIGN.md, "Prober": while streaming,
/// the measured media upload rate keeps the grade current; `stream {uploadKbps, fps}`).
///
/// Arrivals are summed into `bucketCount` buckets of `bucket` length, aligned on the first arrival; the window is
/// the current bucket and the ones before it, as far back as the first arrival. A stream that stops decays to 0.
/// Pure and constant-memory: the ring is allocated in `init`, `record` allocates nothing.
package struct MediaRateMeter: Sendable {
    /// A reading of the meter.
    package struct Rate: Hashable, Sendable {
        /// Bytes per second received in the window.
        package var bytesPerSecond: Double
        /// Counted frames per second received in the window (video frames with `record(_:now:)`).
        package var framesPerSecond: Double

        /// Kilobits per second (`stream.uploadKbps`).
        package var kbps: Double { bytesPerSecond * 8 / 1000 }
        /// Megabits per second.
        package var mbps: Double { bytesPerSecond * 8 / 1_000_000 }
        /// The grade this rate would get in a connection test. Media is sent at the encoder's bitrate, not as fast
        /// as the link allows, so this is a lower bound of the link's grade.
        package var grade: ConnectionGrade { ConnectionGrade(uploadMbps: mbps) }
        /// Frames per second rounded to a whole number (`stream.fps`).
        package var roundedFPS: Int { Int(framesPerSecond.rounded()) }
    }

    /// Length of one bucket.
    package let bucket: Duration
    /// Buckets in the window.
    package let bucketCount: Int
    /// `rate(now:)` is nil until the window spans at least this long.
    package let minimumSpan: Duration
    private let bucketNanoseconds: Int64
    private var origin: ContinuousClock.Instant?
    private var bucketIDs: [Int64]
    private var bytes: [Int]
    private var frames: [Int]

    /// A meter over `bucketCount` buckets of `bucket` (3 × 1 s by default); readings need `minimumSpan` of data.
    package init(bucket: Duration = .seconds(1), bucketCount: Int = 3, minimumSpan: Duration = .seconds(1)) {
        self.bucket = max(bucket, .milliseconds(1))
        self.bucketCount = max(1, bucketCount)
        self.minimumSpan = minimumSpan
        bucketNanoseconds = ProbeTime.nanoseconds(self.bucket)
        bucketIDs = Array(repeating: .min, count: self.bucketCount)
        bytes = Array(repeating: 0, count: self.bucketCount)
        frames = Array(repeating: 0, count: self.bucketCount)
    }

    /// `count` bytes arrived at `now`, in a frame that counts for `framesPerSecond` when `countsFrame`.
    /// Arrivals older than the window are dropped.
    package mutating func record(bytes count: Int, countsFrame: Bool = true, now: ContinuousClock.Instant) {
        let origin = self.origin ?? now
        self.origin = origin
        let id = bucketID(now, origin: origin)
        let slot = Self.slot(id, count: bucketCount)
        if bucketIDs[slot] != id {
            guard id > bucketIDs[slot] else { return }
            bucketIDs[slot] = id
            bytes[slot] = 0
            frames[slot] = 0
        }
        bytes[slot] += max(0, count)
        if countsFrame { frames[slot] += 1 }
    }

    /// A media frame arrived at `now`: all its bytes count; it counts as a frame only if it is video.
    package mutating func record(_ frame: MediaFrame, now: ContinuousClock.Instant) {
        record(bytes: frame.byteCount, countsFrame: frame.kind == .video, now: now)
    }

    /// The rate over the window ending at `now`; nil before the first arrival or while the window is shorter
    /// than `minimumSpan`.
    package func rate(now: ContinuousClock.Instant) -> Rate? {
        guard let origin, now > origin else { return nil }
        let current = bucketID(now, origin: origin)
        let oldest = current - Int64(bucketCount - 1)
        let windowStart = max(origin, origin + bucket * oldest)
        let span = now - windowStart
        guard span > .zero, span >= minimumSpan else { return nil }
        var byteSum = 0
        var frameSum = 0
        for slot in 0..<bucketCount where bucketIDs[slot] >= oldest && bucketIDs[slot] <= current {
            byteSum += bytes[slot]
            frameSum += frames[slot]
        }
        let seconds = ProbeTime.seconds(span)
        return Rate(bytesPerSecond: Double(byteSum) / seconds, framesPerSecond: Double(frameSum) / seconds)
    }

    private func bucketID(_ now: ContinuousClock.Instant, origin: ContinuousClock.Instant) -> Int64 {
        let elapsed = ProbeTime.nanoseconds(now - origin)
        let (quotient, remainder) = elapsed.quotientAndRemainder(dividingBy: bucketNanoseconds)
        return remainder < 0 ? quotient - 1 : quotient
    }

    private static func slot(_ id: Int64, count: Int) -> Int {
        let remainder = Int(id % Int64(count))
        return remainder < 0 ? remainder + count : remainder
    }
}
