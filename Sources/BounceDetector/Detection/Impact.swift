/// What struck: the ball on the table, the ball on a racket, or an impact the classifier cannot place.
public enum ImpactKind: String, Sendable, Hashable, CaseIterable {
    case table, racket, unknown
}

/// One ball impact heard in a stream.
public struct Impact: Sendable, Hashable {
    /// Onset position in frames (samples per channel) from the stream's first sample, at the input rate.
    public var frame: Int64
    /// Onset time in seconds from the stream's first sample.
    public var time: Double
    /// What struck.
    public var kind: ImpactKind
    /// How sure the detector is, 0…1.
    public var confidence: Float

    public init(frame: Int64, time: Double, kind: ImpactKind, confidence: Float) {
        self.frame = frame
        self.time = time
        self.kind = kind
        self.confidence = confidence
    }
}
