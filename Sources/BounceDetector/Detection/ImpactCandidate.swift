/// Which of the detector's triggers first saw a candidate. The weaker the evidence, the more a candidate must show
/// before it is reported (see `ImpactDetector`).
package enum TriggerEvidence: Int, Sendable {
    /// The whole onset band's flux (`SpectralFlux`): full evidence of an onset.
    case wholeBand = 0
    /// Only the racket band's flux (1–4 kHz): it must ring more clearly and start in three bands at once.
    case racketBand = 1
    /// Only the band energies' rise (`BandRise`): a faint broadband onset no single bin showed. It must also clear
    /// the room in its onset frame and in its attack, and ring down, as a faint ball does.
    case bandRise = 2
}

/// A refined onset waiting for its decision.
struct ImpactCandidate {
    var onset: Int64
    /// The whole band's flux at the trigger.
    var flux: Float
    /// The edge's peak magnitude and the noise RMS it was judged against (for re-anchoring).
    var peak: Float
    var noise: Float
    /// Which trigger saw it.
    var evidence: TriggerEvidence
    /// It was moved once already to where the ring's prediction error began to rise (`RunEvidence.retimed`).
    var retimed = false

    /// Only a narrower trigger saw it, not the whole band.
    var isWeak: Bool { evidence != .wholeBand }
}
