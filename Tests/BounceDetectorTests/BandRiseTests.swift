import Foundation
import Testing
@testable import BounceDetector

@Suite("Band rise trigger")
struct BandRiseTests {
    private let rate = 48000

    /// `BandRise.strength` after each hop of `samples` (Hann-windowed frames, as the detector takes them).
    private func strengths(_ samples: [Float]) throws -> [Float] {
        let parameters = DetectorParameters(sampleRate: rate)
        let n = parameters.fftSize
        let fft = try RealFFT(size: n)
        var rise = BandRise(sampleRate: rate, fftSize: n, warmUpHops: 0)
        defer { rise.deallocate() }
        var out: [Float] = []
        var end = n
        while end <= samples.count {
            for i in 0..<n {
                let s = sin(Float.pi * Float(i) / Float(n))
                fft.input[i] = samples[end - n + i] * s * s
            }
            fft.forward()
            rise.update(fft)
            out.append(rise.strength)
            end += parameters.hop
        }
        return out
    }

    /// White noise of amplitude `level`, `gain` times louder from `step` seconds on.
    private func noise(seconds: Double, level: Float = 0.01, gain: Float = 1, step: Double = 10) -> [Float] {
        var random = TestNoise(seed: 5)
        let stepFrame = Int(step * Double(rate))
        return (0..<Int(seconds * Double(rate))).map { i in (i < stepFrame ? level : level * gain) * random.next() }
    }

    @Test("steady noise stays well under the trigger")
    func steadyNoise() throws {
        let values = try strengths(noise(seconds: 1)).filter(\.isFinite)
        let trigger = DetectorParameters(sampleRate: rate).bandRiseTriggerDB
        #expect(values.count > 600)
        #expect(values.sorted()[values.count / 2] < 2)
        #expect(values.allSatisfy { $0 < trigger }, "max \(values.max() ?? 0) dB")
    }

    @Test("a broadband step of 12 dB reads as 12 dB in a steady multitone and passes the trigger in noise")
    func broadbandStep() throws {
        // A tone at the centre of every third bin from 750 Hz to 10 kHz: a Hann window spreads a centred tone over its
        // bin and the two beside it only, so no two tones share a bin and every band's power is steady: the rise is
        // exact.
        let binHz = Double(rate) / Double(DetectorParameters(sampleRate: rate).fftSize)
        let bins = Array(stride(from: 4, through: 52, by: 3))
        let tones: [Float] = (0..<rate).map { i in
            let t = Double(i) / Double(rate)
            var y = 0.0
            for k in bins { y += cos(2 * .pi * Double(k) * binHz * t + Double(k * k) * 0.7) }
            return Float(y) * (i < rate / 2 ? 0.001 : 0.004)
        }
        let values = try strengths(tones)
        // Hop 375 is the first whose frame (24 000 ..< 24 256) lies wholly after the step; its reference frames end
        // 2.7 ms and more before it starts.
        let hop = DetectorParameters(sampleRate: rate).hop
        let first = rate / 2 / hop
        #expect(abs(values[first] - 12.04) < 0.05, "rise \(values[first]) dB")
        #expect(abs(values[first - 1] - 12.04) > 0.1, "the frame before still holds quiet samples")
        let peak = try #require(values.filter(\.isFinite).max())
        #expect(peak < 13, "frames straddling the step read no more than a little over it (\(peak) dB)")
        // In noise the top three of seven bands read high by a few dB, never low.
        let noisy = try #require(try strengths(noise(seconds: 1, gain: 4, step: 0.5)).filter(\.isFinite).max())
        #expect(noisy > DetectorParameters(sampleRate: rate).bandRiseTriggerDB, "peak \(noisy) dB")
    }

    @Test("a tone lifting one band by 15 dB does not reach the trigger: three bands must rise")
    func oneBand() throws {
        // The tone's power is 30 × the noise power in 2–3 kHz (a 1 kHz slice of the 24 kHz of white noise).
        let level: Float = 0.01
        let amplitude = level * (2 * 30 * (1000 / 24000) / 3 as Float).squareRoot()
        var samples = noise(seconds: 1, level: level)
        for i in (rate / 2)..<samples.count {
            samples[i] += amplitude * Float(sin(2 * Double.pi * 2500 * Double(i) / Double(rate)))
        }
        let values = try strengths(samples).filter(\.isFinite)
        let trigger = DetectorParameters(sampleRate: rate).bandRiseTriggerDB
        let peak = try #require(values.max())
        #expect(peak > 3, "the band's rise shows (peak \(peak) dB)")
        #expect(peak < trigger, "peak \(peak) dB")
    }

    @Test("nothing is reported during the warm-up")
    func warmUp() throws {
        let parameters = DetectorParameters(sampleRate: rate)
        let fft = try RealFFT(size: parameters.fftSize)
        var rise = BandRise(sampleRate: rate, fftSize: parameters.fftSize, warmUpHops: 20)
        defer { rise.deallocate() }
        for i in 0..<parameters.fftSize { fft.input[i] = i % 2 == 0 ? 0.5 : -0.5 }
        for _ in 0..<20 {
            fft.forward()
            rise.update(fft)
            #expect(rise.strength == -.infinity)
        }
        fft.forward()
        rise.update(fft)
        #expect(rise.strength.isFinite)
    }

    /// The detector with both flux triggers off, so only the band rise can see anything.
    private func bandRiseOnly(_ samples: [Float], trigger: Float? = nil) throws -> (impacts: [Impact], evidence: [TriggerEvidence]) {
        let detector = try ImpactDetector(format: AudioFormat(sampleRate: rate, channels: 1)) { p in
            p.minimumFlux = .greatestFiniteMagnitude
            p.lowestFlux = .greatestFiniteMagnitude
            p.racketTrigger = false
            if let trigger { p.bandRiseTriggerDB = trigger }
        }
        var evidence: [TriggerEvidence] = []
        detector.candidateObserver = { _, _, _, seen, _ in evidence.append(seen) }
        var impacts: [Impact] = []
        samples.withUnsafeBufferPointer { detector.process($0) { impacts.append($0) } }
        detector.finish { impacts.append($0) }
        return (impacts, evidence)
    }

    @Test("the band rise alone finds an impact and times it to the sample; a clap it sees is still rejected")
    func detectorPath() throws {
        let scene = ImpactSignals.scene(seconds: 1.2, rate: rate, events: [
            (0.5, ImpactSignals.impact(table: false, rate: rate)), (0.9, ImpactSignals.clap(rate: rate)),
        ])
        let (impacts, evidence) = try bandRiseOnly(scene)
        #expect(evidence == [.bandRise, .bandRise])
        #expect(impacts.count == 1)
        #expect(abs((impacts.first?.frame ?? 0) - 24000) <= 3, "onset at \(impacts.first?.frame ?? -1)")
        #expect(impacts.first?.kind == .racket)
        // Off, nothing sees it.
        #expect(try bandRiseOnly(scene, trigger: 0).evidence.isEmpty)
    }
}
