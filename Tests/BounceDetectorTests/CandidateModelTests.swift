import Testing
@testable import BounceDetector

@Suite("Learned recovery")
struct CandidateModelTests {
    /// A clean table bounce: clears the room by 25 dB, rings in clear lines, decays, starts in five bands at once.
    private func ball() -> ImpactFeatures {
        var features = ImpactFeatures(snrDB: 10, centroidHz: 3000, tonality: 0.95, highShare: 0.1, decayDB: -15,
                                      attackDB: 25, peakContrastDB: 8, ringingTonality: 0.95,
                                      ringingContrastDB: 10, peakPersistence: 1, lineCoherence: 0.9)
        features.risingBands = 5
        features.wholeBandAttackDB = 20
        features.flatnessDB = -14
        features.bandLevelsDB = SIMD8(-20, -18, -16, -15, -17, -20, -24, -.infinity)
        return features
    }

    /// A sound that is no impact: it barely rises, grows 6 ms on, in one band, with no lines.
    private func babble() -> ImpactFeatures {
        var features = ImpactFeatures(snrDB: -3, centroidHz: 1500, tonality: 0.4, highShare: 0.05, decayDB: 2,
                                      attackDB: 3, peakContrastDB: 1, ringingTonality: 0.4,
                                      ringingContrastDB: 1, peakPersistence: 0.2, lineCoherence: 0.2)
        features.risingBands = 1
        features.wholeBandAttackDB = 1
        features.flatnessDB = -4
        features.bandLevelsDB = SIMD8(-20, -22, -30, -34, -36, -40, -44, -.infinity)
        return features
    }

    private let broadRise = WhitenedRise(medianDB: 14, lowerQuartileDB: 10, shareOver6DB: 0.9, shareOver3DB: 0.95,
                                         meanDB: 18)
    private let noRise = WhitenedRise(medianDB: 0, lowerQuartileDB: -3, shareOver6DB: 0.05, shareOver3DB: 0.2,
                                      meanDB: 2)

    @Test("the fitted check candidate gets the probability the fitting script computed")
    func replaysFit() {
        let model = CandidateModel()
        let inputs = CandidateModel.check.inputs
        #expect(inputs.count == CandidateModel.inputCount)
        let probability = inputs.withUnsafeBufferPointer { model.probability(of: $0) }
        #expect(abs(probability - CandidateModel.check.probability) < 1e-4,
                "Swift \(probability), fit_candidate_model.py \(CandidateModel.check.probability)")
    }

    @Test("a clean ball scores high, a babble rise low; non-finite inputs (a cosine not scored) count as the lowest")
    func separates() {
        let model = CandidateModel()
        let ballScore = model.probability(ball(), flux: 120, evidence: .wholeBand, templateCosine: 0.8,
                                          templateReference: 0.7, rise: broadRise)
        let babbleScore = model.probability(babble(), flux: 23, evidence: .racketBand, templateCosine: .nan,
                                            templateReference: .nan, rise: noRise)
        #expect((ballScore ?? 0) > 0.9)
        #expect((babbleScore ?? 1) < 0.1)
        var corrupt = ball()
        corrupt.decayDB = Float.nan
        let corruptScore = model.probability(corrupt, flux: Float.infinity, evidence: .wholeBand,
                                             templateCosine: .nan, templateReference: .nan, rise: .unmeasured)
        #expect(corruptScore.map { $0.isFinite } == true)
    }

    @Test("the model reads no timbre: the centroid and the band shape do not move its score")
    func readsNoTimbre() {
        let model = CandidateModel()
        var other = ball()
        other.centroidHz = 1200
        other.bandLevelsDB = SIMD8(-10, -30, -12, -35, -14, -40, -16, -.infinity)
        let score = { (f: ImpactFeatures) in
            model.probability(f, flux: 60, evidence: .wholeBand, templateCosine: .nan, templateReference: .nan,
                              rise: broadRise)
        }
        #expect(score(ball()) == score(other))
        #expect(!CandidateModel.inputNames.contains("centroid_hz")
                && !CandidateModel.inputNames.contains { $0.hasPrefix("shape") })
    }

    @Test("fewer than seven onset bands (a rate under 44.1 kHz): no score, the rules decide")
    func needsSevenBands() {
        var features = ball()
        features.bandLevelsDB[6] = -.infinity
        #expect(CandidateModel().probability(features, flux: 120, evidence: .wholeBand, templateCosine: .nan,
                                             templateReference: .nan, rise: broadRise) == nil)
        let detector16k = DetectorParameters(sampleRate: 16000)
        #expect(OnsetBands.bands(sampleRate: detector16k.sampleRate).count < CandidateModel.bandCount)
    }

    @Test("it may give back only a loud room's rejections: faint, no ball, a thud, no energy")
    func recoversOnlyNoiseRejections() {
        let recoverable: [CandidateRule] = [.faint, .notBall, .thud, .noEnergy]
        for rule in recoverable { #expect(rule.recoverable, "\(rule.name)") }
        let kept: [CandidateRule] = [.applause, .flat, .bright, .held, .fewBands, .notReplacing, .resonance, .runContinues]
        for rule in kept { #expect(!rule.recoverable, "\(rule.name)") }
    }
}
