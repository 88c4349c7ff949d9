/// The upload rate of a `probe.upload` burst, from the receive times of its filler frames.
///
/// The first `rampUp` after the first frame's arrival is TCP slow start and is discarded: the rate is the bytes
/// of the frames that arrived after the last frame of the ramp-up (the anchor), divided by the time from the
/// anchor's arrival to the last arrival. Measuring between two arrivals, not from a fixed cut, keeps big frames on
/// slow links from being over- or under-counted. Constant memory; `record` allocates nothing.
struct UploadRateEstimator: Hashable, Sendable {
    /// Time after the first frame whose frames only serve as the anchor.
    let rampUp: Duration
    /// Filler frames recorded.
    private(set) var frames = 0
    /// Filler bytes recorded.
    private(set) var totalBytes = 0
    private var firstAt: ContinuousClock.Instant?
    private var firstBytes = 0
    private var lastAt: ContinuousClock.Instant?
    private var anchorAt: ContinuousClock.Instant?
    private var bytesAfterAnchor = 0

    init(rampUp: Duration) { self.rampUp = rampUp }

    /// One filler frame of `bytes` arrived at `now` (a `now` earlier than the last one counts as the last one).
    mutating func record(bytes: Int, now: ContinuousClock.Instant) {
        let bytes = max(0, bytes)
        let at = max(now, lastAt ?? now)
        frames += 1
        totalBytes += bytes
        lastAt = at
        guard let firstAt else {
            self.firstAt = at
            firstBytes = bytes
            anchorAt = at
            return
        }
        if at <= firstAt + rampUp {
            anchorAt = at
            bytesAfterAnchor = 0
        } else {
            bytesAfterAnchor += bytes
        }
    }

    /// The measured rate in Mbit/s; nil without filler bytes. When every frame fell in the ramp-up, the rate is
    /// taken from the first to the last arrival; with a single frame, from `requestedAt` (the `probe.upload`).
    func uploadMbps(requestedAt: ContinuousClock.Instant) -> Double? {
        guard totalBytes > 0, let firstAt, let lastAt, let anchorAt else { return nil }
        if bytesAfterAnchor > 0, lastAt > anchorAt {
            return Self.mbps(bytes: bytesAfterAnchor, over: lastAt - anchorAt)
        }
        if totalBytes > firstBytes, lastAt > firstAt {
            return Self.mbps(bytes: totalBytes - firstBytes, over: lastAt - firstAt)
        }
        if lastAt > requestedAt {
            return Self.mbps(bytes: totalBytes, over: lastAt - requestedAt)
        }
        return nil
    }

    private static func mbps(bytes: Int, over duration: Duration) -> Double {
        Double(bytes) * 8 / ProbeTime.seconds(duration) / 1_000_000
    }
}
