/// Decides from `ImpactFeatures` whether a candidate is a ball impact, and which kind.
///
/// Pure and allocation-free; thresholds are physical statements (see each property), not fitted weights.
public struct ImpactClassifier: Sendable, Equatable {
    /// A struck ball rings at a few modes: at least this share of the excess energy must sit in its four peaks.
    public var minimumTonality: Float = 0.55
    /// An impact starts abruptly: its first 2.5 ms must carry this much more energy than the 4 ms before (dB).
    public var minimumAttackDB: Float = 6
    /// A shell mode is a resonance: its peak must stand this far above the spectrum three bins to either side (dB).
    /// A clap's band of noise is a broad hump; 0 dB keeps only the sanity check (see BENCHMARKS.md: a higher value
    /// rejects claps but costs recall on the dev set and through Opus).
    public var minimumPeakContrastDB: Float = 0
    /// Above this share of energy over 6.5 kHz the sound is a hi-hat or cymbal, not a ball.
    public var maximumHighShare: Float = 0.75
    /// Sounds that grow or hold after their onset (squeaks, voices) are rejected: decay must stay below this (dB).
    /// Kept lenient because in loud rooms the floor-corrected decay is noisy.
    public var maximumDecayDB: Float = 3
    /// Excess centroid separating table bounces (shell modes, 2–8 kHz) from racket hits (1–4 kHz and a thud):
    /// the geometric middle of the two.
    public var tableCentroidHz: Float = 2400
    /// Within this distance of `tableCentroidHz` the kind is reported as `unknown`.
    public var unsureBandHz: Float = 150

    public init() {}

    /// The kind and confidence of a ball impact, or nil when the sound is not one.
    public func classify(_ features: ImpactFeatures) -> (kind: ImpactKind, confidence: Float)? {
        guard features.tonality >= minimumTonality, features.attackDB >= minimumAttackDB,
            features.peakContrastDB >= minimumPeakContrastDB,
            features.highShare <= maximumHighShare, features.decayDB <= maximumDecayDB
        else { return nil }
        let distance = features.centroidHz - tableCentroidHz
        let kind: ImpactKind = abs(distance) < unsureBandHz ? .unknown : (distance > 0 ? .table : .racket)
        // Each margin maps to 0…1; confidence is their geometric mean.
        let tonal = Self.ramp(features.tonality, from: minimumTonality, to: minimumTonality + 0.3)
        let decay = Self.ramp(-features.decayDB, from: 0, to: 12)
        let attack = Self.ramp(features.attackDB, from: minimumAttackDB, to: minimumAttackDB + 12)
        let loud = Self.ramp(features.snrDB, from: 0, to: 20)
        let confidence = (0.2 + 0.8 * tonal) * (0.5 + 0.5 * decay) * (0.3 + 0.7 * attack) * (0.5 + 0.5 * loud)
        return (kind, min(1, max(0.01, confidence.squareRoot())))
    }

    private static func ramp(_ x: Float, from low: Float, to high: Float) -> Float {
        min(1, max(0, (x - low) / (high - low)))
    }
}
