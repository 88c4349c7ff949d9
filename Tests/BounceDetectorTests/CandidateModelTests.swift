import Testing
@testable import BounceDetector

@Suite("Learned candidate score")
struct CandidateModelTests {
    private let rules = CandidateRules(parameters: DetectorParameters(sampleRate: 48000), classifier: ImpactClassifier(),
                                       bands: 7)

    /// A clean table bounce: clears the room by 25 dB, rings in clear lines, decays, starts in five bands at once.
    private func ball() -> ImpactFeatures {
        var features = ImpactFeatures(snrDB: 10, centroidHz: 3000, tonality: 0.95, highShare: 0.1, decayDB: -15,
                                      attackDB: 25, peakContrastDB: 8, ringingTonality: 0.95,
                                      ringingContrastDB: 10, peakPersistence: 1, lineCoherence: 0.9)
        features.risingBands = 5
        features.bandLevelsDB = SIMD8(-20, -18, -16, -15, -17, -20, -24, -.infinity)
        return features
    }

    /// A sound that is no impact: it barely rises, grows 6 ms on, in one band, with no lines.
    private func babble() -> ImpactFeatures {
        var features = ImpactFeatures(snrDB: -3, centroidHz: 1500, tonality: 0.4, highShare: 0.05, decayDB: 2,
                                      attackDB: 3, peakContrastDB: 1, ringingTonality: 0.4,
                                      ringingContrastDB: 1, peakPersistence: 0.2, lineCoherence: 0.2)
        features.risingBands = 1
        features.bandLevelsDB = SIMD8(-20, -22, -30, -34, -36, -40, -44, -.infinity)
        return features
    }

    @Test("the fitted check candidate gets the probability the fitting script computed")
    func replaysFit() {
        let model = CandidateModel()
        let inputs = CandidateModel.check.inputs
        #expect(inputs.count == CandidateModel.inputCount)
        let probability = inputs.withUnsafeBufferPointer { model.probability(of: $0) }
        #expect(abs(probability - CandidateModel.check.probability) < 1e-4,
                "Swift \(probability), fit_candidate_model.py \(CandidateModel.check.probability)")
    }

    @Test("a clean ball scores high, a babble rise low; non-finite inputs count as the lowest seen")
    func separates() {
        let model = CandidateModel()
        let ballScore = model.probability(ball(), flux: 120, evidence: .wholeBand)
        let babbleScore = model.probability(babble(), flux: 23, evidence: .racketBand)
        #expect((ballScore ?? 0) > 0.9)
        #expect((babbleScore ?? 1) < 0.1)
        var corrupt = ball()
        corrupt.decayDB = Float.nan
        let corruptScore = model.probability(corrupt, flux: Float.infinity, evidence: .wholeBand)
        #expect(corruptScore.map { $0.isFinite } == true)
    }

    @Test("fewer than seven onset bands (a rate under 44.1 kHz): no score, the rules decide")
    func needsSevenBands() {
        var features = ball()
        features.bandLevelsDB[6] = -.infinity
        #expect(CandidateModel().probability(features, flux: 120, evidence: .wholeBand) == nil)
        let detector16k = DetectorParameters(sampleRate: 16000)
        #expect(OnsetBands.bands(sampleRate: detector16k.sampleRate).count < CandidateModel.bandCount)
    }

    @Test("the model accepts at its acceptance whatever the rules say, and vetoes the rules' impact under its veto")
    func combinesWithRules() {
        func impact(_ verdict: CandidateRules.Verdict) -> Bool {
            if case .impact = verdict { return true }
            return false
        }
        // The rules reject the babble rise and accept the ball.
        #expect(!impact(rules.verdict(babble(), evidence: .wholeBand, typicalAttackDB: 24)))
        #expect(impact(rules.verdict(ball(), evidence: .wholeBand, typicalAttackDB: 24)))
        #expect(impact(rules.verdict(babble(), evidence: .wholeBand, typicalAttackDB: 24, modelProbability: 0.6)))
        if case .impact(_, let confidence) = rules.verdict(babble(), evidence: .wholeBand, typicalAttackDB: 24,
                                                           modelProbability: 0.6) {
            #expect(confidence == 0.6)
        }
        #expect(impact(rules.verdict(ball(), evidence: .wholeBand, typicalAttackDB: 24, modelProbability: 0.3)),
                "between the veto and the acceptance the rules decide")
        #expect(rules.verdict(ball(), evidence: .bandRise, typicalAttackDB: 24, modelProbability: 0.1)
                == .rejected(restore: true, endRefractory: false), "vetoed: a weak trigger's hold-offs undone")
        #expect(rules.verdict(ball(), evidence: .wholeBand, typicalAttackDB: 24, modelProbability: 0.1)
                == .rejected(restore: false, endRefractory: false))
    }

    @Test("a run's next bounce is the run rules' to decide: the model cannot veto it")
    func runsFirst() {
        var faint = ball()
        faint.attackDB = 9
        faint.tonality = 0.5
        #expect(rules.verdict(faint, evidence: .bandRise, typicalAttackDB: 24, followsImpact: true,
                              modelProbability: 0) != .rejected(restore: true, endRefractory: false))
    }
}
