import Foundation

/// Decides from `ImpactFeatures` whether a candidate is a ball impact, and which kind.
///
/// Two questions, kept apart so that neither can stand in for the other:
/// 1. Is it an impact at all? Its first 2.5 ms must carry `minimumAttackDB` more energy than the room just before
///    it, most of its energy must lie below 6.5 kHz (else a hi-hat or cymbal), and 6 ms on it must have rung down
///    from its loudest moment (else a voice or squeak).
/// 2. Is it a ball rather than another transient (a clap, a footstep, a dropped object)? A struck celluloid shell
///    rings at a few narrow resonances that stay put while it rings; claps and shuffles are bands of noise whose
///    peaks land anywhere. A four-term logistic score over tonality, the peak contrast 2.7–8 ms after the onset,
///    the persistence of the onset's peaks into that late frame, and their line coherence (does each peak's
///    complex value evolve from hop to hop as one free damped mode would?) answers it. Its weights were fitted by
///    `Benchmarks/Scripts/fit_classifier.py` on clean (band attack ≥ 12 dB) candidates of tuning recordings only
///    (gen_corpus seeds 2, 4, 5, 6 and 7, never the test seeds 1 and 3); all four push towards "ball", as physics
///    says.
/// How loud a sound is never makes it a ball. The kind comes from the excess spectrum's centroid. Pure and
/// allocation-free.
public struct ImpactClassifier: Sendable, Equatable {
    /// An impact starts abruptly: in its own bands its first 2.5 ms carry this much more power than 15…3 ms
    /// before (dB; see `ImpactFeatures.attackDB`).
    public var minimumAttackDB: Float = 10
    /// In a loud room the noise caps how far any ball's attack can clear it, so the gate follows the stream: a
    /// candidate may stand `attackBelowTypicalDB` under the attack of the stream's recent balls (see
    /// `ImpactDetector`), but the gate never drops below `attackFloorDB` nor rises above `minimumAttackDB`.
    public var attackFloorDB: Float = 8
    /// See `attackFloorDB`.
    public var attackBelowTypicalDB: Float = 8
    /// Above this share of energy over 6.5 kHz the sound is a hi-hat or cymbal, not a ball.
    public var maximumHighShare: Float = 0.75
    /// Energy 6–8 ms after the onset must be this far below the first 5 ms' loudest millisecond (dB): balls ring
    /// down; a sound that is as loud 6 ms on as at its peak is held (a voice, a squeak).
    public var maximumDecayDB: Float = -1
    /// Resonance probability at which an impact is reported as a ball.
    public var acceptance: Float = 0.5
    /// Excess centroid separating table bounces (shell modes, 2–8 kHz) from racket hits (1–4 kHz and a thud):
    /// the geometric middle of the two.
    public var tableCentroidHz: Float = 2400
    /// Within this distance of `tableCentroidHz` the kind is reported as `unknown`.
    public var unsureBandHz: Float = 150
    /// A clear impact: an onset that clears the room by at least this much (dB, `attackDB`) in at least `clearBands`
    /// bands at once, with most of its excess in a few lines (`clearTonality`), is a struck object whatever the
    /// details of its ringing (a real table's board and a real racket's rubber ring nothing like a free shell);
    /// resonance is asked only of fainter onsets. The clearer the onset, the less its timbre has to prove: the
    /// tonality asked falls linearly to `veryClearTonality` at `veryClearAttackDB`. 0 = off.
    public var clearAttackDB: Float = 14
    /// See `clearAttackDB`.
    public var clearBands = 5
    /// See `clearAttackDB`: claps (noise, 0.55–0.85) mostly fall under it, real and synthetic balls (0.75–0.95) over.
    public var clearTonality: Float = 0.82
    /// See `clearAttackDB`.
    public var veryClearAttackDB: Float = 28
    /// See `clearAttackDB`.
    public var veryClearTonality: Float = 0.55
    /// A clear impact's excess centroid is at least this (Hz): a ball's shell and a blade ring at 1–8 kHz, while what
    /// only leaks over the 700 Hz high-pass (a footstep's or a kick drum's thud, 0.7–1.2 kHz) is no clear impact.
    public var clearCentroidHz: Float = 1200
    /// A clear impact (`isClearImpact`) need only not grow 6–8 ms on (dB, `decayDB`): in a live room, through a phone's
    /// limiter, a real bounce's ring and its first reflections hold it within a dB or two of its clipped peak, while
    /// what `maximumDecayDB` keeps out (a voice, a squeak) never starts that abruptly in that many bands.
    public var clearDecayDB: Float = 3
    /// A clear onset whose onset frame is far from noise's flatness (`ImpactFeatures.flatnessDB` at most this, dB;
    /// 0 = off) is asked `clearPeakyTonalityRelief` less tonality: a real table's board or a bat's rubber can spread a
    /// bounce's excess over many lines (a broadband "tock" that rings down in milliseconds), but only a struck
    /// object leaves valleys in the onset's spectrum that a clap's noise would fill (claps: −2…−4.5 dB). Asked
    /// only of a measured flatness.
    public var clearPeakyFlatnessDB: Float = -6
    /// See `clearPeakyFlatnessDB`.
    public var clearPeakyTonalityRelief: Float = 0.3
    /// Probability of the struck-object score (`struckProbability`) at which an impact is reported as a ball when
    /// the resonance score does not accept it. 1.01 = off.
    public var struckAcceptance: Float = 0.7
    /// A sound in the racket's band of centroids that still rings this close to its peak 6–8 ms on (dB,
    /// `decayDB`) is a table bounce: the rubber damps a racket hit's ring, the board carries a bounce's. −99 = off.
    public var tableRingDecayDB: Float = -6

    /// One term of the score: `weight × (clamp(value) − mean) / scale`.
    struct Term: Sendable, Equatable {
        var mean: Float, scale: Float, weight: Float, low: Float, high: Float

        func callAsFunction(_ value: Float) -> Float { weight * (min(max(value, low), high) - mean) / scale }
    }

    // Fitted on tuning candidates (see the type's comment); clip ranges as in fit_classifier.py.
    static let tonality = Term(mean: 0.8569, scale: 0.0929, weight: 1.0556, low: 0, high: 1)
    static let ringingContrast = Term(mean: 7.6175, scale: 4.5571, weight: 0.4100, low: -10, high: 20)
    static let persistence = Term(mean: 0.8579, scale: 0.2009, weight: 0.5746, low: 0, high: 1)
    static let coherence = Term(mean: 0.7278, scale: 0.1645, weight: 1.0098, low: 0, high: 1)
    static let bias: Float = 3.3415

    // The struck-object score, fitted on real_corpus.py's tuning candidates (seeds 11–15, every condition, attack
    // ≥ 12 dB) by `fit_classifier.py --terms tonality,ring_tonality,rising_bands`.
    static let struckTonality = Term(mean: 0.8649, scale: 0.1540, weight: 1.2441, low: 0, high: 1)
    static let struckRingingTonality = Term(mean: 0.8268, scale: 0.1889, weight: 1.0045, low: 0, high: 1)
    static let struckBands = Term(mean: 6.3445, scale: 1.2031, weight: 1.4023, low: 0, high: 7)
    static let struckBias: Float = 2.4049

    public init() {}

    /// The probability (0…1) that an impulsive sound with these features is a ringing ball rather than noise.
    public func resonanceProbability(_ features: ImpactFeatures) -> Float {
        let score = Self.tonality(features.tonality) + Self.ringingContrast(features.ringingContrastDB)
            + Self.persistence(features.peakPersistence) + Self.coherence(features.lineCoherence) + Self.bias
        return 1 / (1 + exp(-score))
    }

    /// The probability (0…1) that an impulsive sound is a struck object by what a real ball shares with the
    /// generator's: its excess stays in a few lines from the onset into the late frame (tonality, ringing
    /// tonality), and it rose in many bands at once. A real table's board and a racket's rubber ring in lines that
    /// neither stay put nor decay as free modes, so the resonance score (persistence, coherence) misses them in
    /// noise; claps, voices and notes fail here on lines or on bands.
    public func struckProbability(_ features: ImpactFeatures) -> Float {
        let score = Self.struckTonality(features.tonality) + Self.struckRingingTonality(features.ringingTonality)
            + Self.struckBands(Float(features.risingBands)) + Self.struckBias
        return 1 / (1 + exp(-score))
    }

    /// The attack gate for a stream whose recent balls cleared the room by `typicalAttackDB`.
    public func attackGate(typicalAttackDB: Float) -> Float {
        min(minimumAttackDB, max(attackFloorDB, typicalAttackDB - attackBelowTypicalDB))
    }

    /// Whether the sound is an abrupt, not-too-bright onset that rings down (a clear impact: that does not grow).
    public func isImpulsive(_ features: ImpactFeatures) -> Bool {
        guard features.attackDB >= minimumAttackDB, features.highShare <= maximumHighShare else { return false }
        return features.decayDB <= maximumDecayDB || (features.decayDB <= clearDecayDB && isClearImpact(features))
    }

    /// Whether the onset is so abrupt and broadband, and rings in so few lines, that it is an impact whatever else.
    public func isClearImpact(_ features: ImpactFeatures) -> Bool {
        guard clearAttackDB > 0, features.attackDB >= clearAttackDB, features.risingBands >= clearBands,
              features.centroidHz >= clearCentroidHz else {
            return false
        }
        let clearance = min(1, (features.attackDB - clearAttackDB) / max(veryClearAttackDB - clearAttackDB, 1))
        let peaky = clearPeakyFlatnessDB < 0 && features.flatnessDB.isFinite
            && features.flatnessDB <= clearPeakyFlatnessDB
        let relief = peaky ? clearPeakyTonalityRelief : 0
        return features.tonality >= clearTonality + clearance * (veryClearTonality - clearTonality) - relief
    }

    /// The kind of an impact (second decision: it may be `unknown`).
    public func kind(of features: ImpactFeatures) -> ImpactKind {
        let distance = features.centroidHz - tableCentroidHz
        if abs(distance) < unsureBandHz { return .unknown }
        if distance > 0 { return .table }
        return features.decayDB > tableRingDecayDB ? .table : .racket
    }

    /// The kind and confidence of a ball impact, or nil when the sound is not one.
    public func classify(_ features: ImpactFeatures) -> (kind: ImpactKind, confidence: Float)? {
        guard isImpulsive(features) else { return nil }
        var resonance = resonanceProbability(features)
        if resonance < acceptance, struckProbability(features) >= max(struckAcceptance, acceptance) {
            resonance = acceptance
        }
        if resonance < acceptance, isClearImpact(features) {
            // As sure as it is clear: from the acceptance at the clear attack to certainty at the very clear one.
            let clearness = min(1, (features.attackDB - clearAttackDB) / max(veryClearAttackDB - clearAttackDB, 1))
            resonance = acceptance + (1 - acceptance) * clearness
        }
        guard resonance >= acceptance else { return nil }
        let kind = kind(of: features)
        // Sure when it both rings clearly and stands well clear of the room.
        let clearance = min(1, max(0, (features.attackDB - minimumAttackDB) / 12))
        return (kind, resonance * (0.6 + 0.4 * clearance))
    }
}
