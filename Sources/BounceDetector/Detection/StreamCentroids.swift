/// Where the stream's own balls put their spectral centroid (`ImpactFeatures.centroidHz`): the last `capacity` of its
/// clear reports (those that teach `BallTemplates`). The same ball on the same table through the same phone rings in
/// the same lines, so its centroid keeps to a narrow range (csmash's ball at 0 dB SNR: 1350–1880 Hz for 90 % of the
/// balls), while what the room adds — a voice's syllable, a note, a clap — lies below or above it. Whatever the
/// ball: the range is learned from this stream alone. Fixed storage; nothing allocated after `init`.
final class StreamCentroids {
    /// Centroids kept.
    let capacity: Int
    private let values: UnsafeMutablePointer<Float>
    private var count = 0
    private var next = 0

    /// A bank of `capacity` centroids; nil for 0.
    init?(capacity: Int) {
        guard capacity > 0 else { return nil }
        self.capacity = capacity
        values = .allocate(capacity: capacity)
        values.initialize(repeating: 0, count: capacity)
    }

    deinit { values.deallocate() }

    /// Centroids learned so far (at most `capacity`).
    var learned: Int { count }

    /// Keeps a clear report's centroid, forgetting the oldest once full.
    func learn(_ centroidHz: Float) {
        guard centroidHz.isFinite, centroidHz > 0 else { return }
        values[next] = centroidHz
        next = (next + 1) % capacity
        count = min(count + 1, capacity)
    }

    /// The range the stream's balls keep to: its `lowerShare` and `upperShare` quantiles (0…1) widened by the factor
    /// `margin` either way; nil before `minimum` centroids are learned.
    func range(minimum: Int, lowerShare: Float, upperShare: Float, margin: Float) -> ClosedRange<Float>? {
        guard count >= max(minimum, 1) else { return nil }
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: count) { sorted in
            // Insertion sort: a few dozen values, and nothing allocated (the standard sort may take a buffer).
            for i in 0..<count {
                let value = values[i]
                var j = i
                while j > 0, sorted[j - 1] > value {
                    sorted[j] = sorted[j - 1]
                    j -= 1
                }
                sorted[j] = value
            }
            let low = sorted[Self.index(lowerShare, count)] / margin
            let high = sorted[Self.index(upperShare, count)] * margin
            return low...max(low, high)
        }
    }

    /// The element nearest the quantile `share` of `count` sorted values.
    private static func index(_ share: Float, _ count: Int) -> Int {
        min(count - 1, max(0, Int((share * Float(count - 1)).rounded())))
    }
}
