import Foundation
import Testing
@testable import BounceDetector

@Suite("Impact classifier and helpers")
struct ImpactClassifierTests {
    private let classifier = ImpactClassifier()
    private let ball = ImpactFeatures(snrDB: 20, centroidHz: 3800, tonality: 0.85, highShare: 0.1, decayDB: -12,
                                      attackDB: 15, peakContrastDB: 10)

    @Test("a bright, tonal, decaying, abrupt sound is a table bounce; a dull one a racket hit")
    func kinds() {
        #expect(classifier.classify(ball)?.kind == .table)
        var dull = ball
        dull.centroidHz = 1500
        #expect(classifier.classify(dull)?.kind == .racket)
        var between = ball
        between.centroidHz = classifier.tableCentroidHz + 50
        #expect(classifier.classify(between)?.kind == .unknown)
    }

    @Test("noise-like, hi-hat-like, soft-attack and sustained sounds are rejected")
    func rejections() {
        var noisy = ball
        noisy.tonality = 0.3
        #expect(classifier.classify(noisy) == nil)
        var hiHat = ball
        hiHat.highShare = 0.9
        #expect(classifier.classify(hiHat) == nil)
        var soft = ball
        soft.attackDB = 2
        #expect(classifier.classify(soft) == nil)
        var sustained = ball
        sustained.decayDB = 6
        #expect(classifier.classify(sustained) == nil)
    }

    @Test("confidence grows with tonality and attack and stays in 0…1")
    func confidence() throws {
        var weak = ball
        weak.tonality = 0.6
        weak.attackDB = 7
        let strong = try #require(classifier.classify(ball)).confidence
        let faint = try #require(classifier.classify(weak)).confidence
        #expect(strong > faint)
        #expect(strong <= 1 && faint > 0)
    }

    @Test("fastLog matches log over many decades")
    func fastLogAccuracy() {
        for exponent in stride(from: -30.0, through: 30.0, by: 0.37) {
            let x = Float(pow(10, exponent))
            #expect(abs(fastLog(x) - Float(log(Double(x)))) < 1e-4)
        }
    }

    @Test("parameters follow the sample rate: ~5 ms frames, quarter-frame hops, band inside Nyquist")
    func parameters() {
        let p48 = DetectorParameters(sampleRate: 48000)
        #expect(p48.fftSize == 256 && p48.hop == 64)
        let p16 = DetectorParameters(sampleRate: 16000)
        #expect(p16.fftSize == 64 && p16.bandBins.upperBound <= 32)
        #expect(DetectorParameters(sampleRate: 44100).fftSize == 256)
    }
}
