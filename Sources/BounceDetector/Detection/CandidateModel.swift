import Foundation

/// A learned score: the probability that a measured candidate is a ball impact, from its features.
///
/// The hand rules (`ImpactClassifier`, `CandidateRules`) ask a few features one at a time; in a room as loud as
/// the ball (0 dB) the features of balls and of babble, claps and music overlap on every one of them, and what
/// separates them is how they combine. This is a small ensemble of one-hidden-layer networks over the same
/// features the rules read (never an absolute level: a loud sound is not thereby a ball), fitted on tuning
/// recordings only by `Benchmarks/Scripts/fit_candidate_model.py`, which writes `CandidateModelWeights.swift`.
/// Retuning on new recordings is that one command (docs/DETECTOR.md).
///
/// It needs all seven onset bands (`OnsetBands`: rates of 44.1 kHz and up, every Opus stream); below that the
/// rules decide. Buffers are allocated in `init`; `probability` allocates nothing.
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
    /// is a ball impact; nil when the rate has fewer than seven onset bands.
    func probability(_ features: ImpactFeatures, flux: Float, evidence: TriggerEvidence) -> Float? {
        let levels = features.bandLevelsDB
        var loudest = -Float.infinity
        for band in 0..<Self.bandCount {
            guard levels[band].isFinite else { return nil }
            loudest = max(loudest, levels[band])
        }
        inputs[0] = flux
        inputs[1] = features.snrDB
        inputs[2] = features.centroidHz
        inputs[3] = features.tonality
        inputs[4] = features.highShare
        inputs[5] = features.decayDB
        inputs[6] = features.attackDB
        inputs[7] = features.peakContrastDB
        inputs[8] = features.ringingTonality
        inputs[9] = features.ringingContrastDB
        inputs[10] = features.peakPersistence
        inputs[11] = features.lineCoherence
        inputs[12] = Float(features.risingBands)
        inputs[13] = features.wholeBandAttackDB
        inputs[14] = evidence == .racketBand ? 1 : 0
        inputs[15] = evidence == .bandRise ? 1 : 0
        for band in 0..<Self.bandCount { inputs[16 + band] = levels[band] - loudest }
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
