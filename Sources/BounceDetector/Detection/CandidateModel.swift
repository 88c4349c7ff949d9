import Foundation

/// A learned recovery: the probability that a candidate the hand rules rejected in a loud room is a ball impact.
///
/// In a room as loud as the ball (0 dB) the features of balls and of babble, a talker's onsets, claps and music
/// overlap on every one of them, and what separates them is how they combine. This is a small ensemble of
/// one-hidden-layer networks over the features that carry no timbre of their own — how abruptly and how broadly
/// the onset rises (flux, excess, attack, whole-band attack, rising bands, the bin-by-bin rise over the room,
/// `WhitenedRise`), how it rings and decays (tonality, contrast, persistence, coherence, decay, flatness), which
/// trigger saw it, and how like the stream's own balls it is (`BallTemplates`' cosine and reference) — never the
/// centroid, the band shape or an absolute level (a learned timbre did not carry over to a ball it had not heard:
/// docs/DETECTOR.md). Fitted on tuning recordings only by `Benchmarks/Scripts/fit_candidate_model.py`, which writes
/// `CandidateModelWeights.swift`; retuning on new recordings is that one command (docs/DETECTOR.md).
///
/// It needs all seven onset bands (`OnsetBands`: rates of 44.1 kHz and up, every Opus stream); below that the
/// rules decide alone. Buffers are allocated in `init`; `probability` allocates nothing.
final class CandidateModel {
    /// One network of the ensemble (the generated weights).
    struct Network {
        var inputWeights: [Float]
        var hiddenBias: [Float]
        var outputWeights: [Float]
        var outputBias: Float
    }

    static let inputCount = 23
    /// Onset bands the inputs describe.
    static let bandCount = 7

    private let inputs: UnsafeMutablePointer<Float>
    private let hidden: UnsafeMutablePointer<Float>

    init() {
        precondition(Self.inputNames.count == Self.inputCount && Self.low.count == Self.inputCount
                     && Self.networks.allSatisfy { $0.inputWeights.count == Self.inputCount * $0.hiddenBias.count },
                     "CandidateModelWeights.swift does not match CandidateModel")
        inputs = .allocate(capacity: Self.inputCount)
        hidden = .allocate(capacity: Self.networks.map(\.hiddenBias.count).max() ?? 1)
    }

    deinit {
        inputs.deallocate()
        hidden.deallocate()
    }

    /// The probability (0…1) that a candidate with `features`, triggered by `evidence` at whole-band flux `flux`,
    /// with template cosine `templateCosine` against the stream's reference `templateReference` (NaN when not
    /// scored) and bin-by-bin rise `rise`, is a ball impact; nil when the rate has fewer than seven onset bands.
    func probability(_ features: ImpactFeatures, flux: Float, evidence: TriggerEvidence, templateCosine: Float,
                     templateReference: Float, rise: WhitenedRise) -> Float? {
        for band in 0..<Self.bandCount where !features.bandLevelsDB[band].isFinite { return nil }
        inputs[0] = flux
        inputs[1] = features.snrDB
        inputs[2] = features.tonality
        inputs[3] = features.highShare
        inputs[4] = features.decayDB
        inputs[5] = features.attackDB
        inputs[6] = features.peakContrastDB
        inputs[7] = features.ringingTonality
        inputs[8] = features.ringingContrastDB
        inputs[9] = features.peakPersistence
        inputs[10] = features.lineCoherence
        inputs[11] = Float(features.risingBands)
        inputs[12] = features.wholeBandAttackDB
        inputs[13] = evidence == .racketBand ? 1 : 0
        inputs[14] = evidence == .bandRise ? 1 : 0
        inputs[15] = features.flatnessDB
        inputs[16] = templateCosine
        inputs[17] = templateReference
        inputs[18] = rise.medianDB
        inputs[19] = rise.lowerQuartileDB
        inputs[20] = rise.shareOver6DB
        inputs[21] = rise.shareOver3DB
        inputs[22] = rise.meanDB
        return probability(of: UnsafeBufferPointer(start: inputs, count: Self.inputCount))
    }

    /// The ensemble's mean probability for raw (unclipped, unscaled) inputs in `inputNames` order.
    func probability(of raw: UnsafeBufferPointer<Float>) -> Float {
        for i in 0..<Self.inputCount {
            let value = raw[i].isFinite ? raw[i] : Self.low[i]
            inputs[i] = (min(max(value, Self.low[i]), Self.high[i]) - Self.mean[i]) / Self.scale[i]
        }
        var sum: Float = 0
        for network in Self.networks {
            let units = network.hiddenBias.count
            for u in 0..<units { hidden[u] = network.hiddenBias[u] }
            network.inputWeights.withUnsafeBufferPointer { weights in
                for i in 0..<Self.inputCount {
                    let x = inputs[i]
                    let row = i * units
                    for u in 0..<units { hidden[u] += x * weights[row + u] }
                }
            }
            var score = network.outputBias
            for u in 0..<units { score += max(0, hidden[u]) * network.outputWeights[u] }
            sum += 1 / (1 + exp(-score))
        }
        return sum / Float(Self.networks.count)
    }
}
