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

/// Which rule placed a candidate's onset; its raw value is the name `pongd detect --candidates` writes (`timed_by`).
package enum OnsetTiming: String, Sendable {
    /// The refiner's edge in the high-passed samples (`OnsetRefiner`).
    case edge
    /// The last bounce's ring's prediction error where a run's next bounce was due (`RunEvidence.onset(of:)`).
    case ring
    /// A later, louder edge while it waited (`ImpactDetector.reanchor`).
    case reanchored
    /// The ring's prediction error's change point after a weak candidate the ring predicted (`RunEvidence.retimed`).
    case retimed
    /// The clipping after a candidate in a ring at the phone's rail (`RunEvidence.clipRetimed`).
    case clipRetimed = "clipretimed"
    /// No trigger: the ring's prediction error alone (`RunEvidence.hiddenBounceOnset`).
    case ringError = "ringerror"
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
    /// Which rule placed `onset`.
    var timing = OnsetTiming.edge
    /// Triggered inside a report's refractory only to replace that report (`RunEvidence.mayReplaceLast`): decided
    /// as nothing else.
    var onlyReplacing = false

    /// It was moved once already, to where the ring's prediction error began to rise or to the clipping after it
    /// (`RunEvidence.retimed`, `RunEvidence.clipRetimed`): it is not moved again.
    var retimed: Bool { timing == .retimed || timing == .clipRetimed }

    /// The same candidate with its onset moved to `onset` by `timing` (a retime: it is not moved again).
    func moved(to onset: Int64, by timing: OnsetTiming) -> ImpactCandidate {
        var later = self
        later.onset = onset
        later.timing = timing
        return later
    }

    /// Only a narrower trigger saw it, not the whole band.
    var isWeak: Bool { evidence != .wholeBand }
}
