import Foundation
import Testing
@testable import BounceDetector

@Suite("Bin-by-bin rise over the room")
struct WhitenedRiseTests {
    private let rate = 48000
    private let onset: Int64 = 4800

    /// Measures the rise at `onset` of `signal` (one value per sample from 0) with the detector's frame and window.
    private func rise(_ signal: (Int) -> Float) throws -> WhitenedRise {
        let parameters = DetectorParameters(sampleRate: rate)
        let n = parameters.fftSize
        let fft = try RealFFT(size: n)
        let window = UnsafeMutablePointer<Float>.allocate(capacity: n)
        defer { window.deallocate() }
        for i in 0..<n { window[i] = Float(pow(sin(Double.pi * Double(i) / Double(n)), 2)) }
        let ring = SampleRing(minimumCapacity: 16384)
        defer { ring.deallocate() }
        let end = Int(onset) + 2 * n
        for i in 0..<end { ring.write(signal(i), at: Int64(i)) }
        let meter = WhitenedRiseMeter(fftSize: n, bins: parameters.bandBins, sampleRate: rate)
        #expect(meter.measure(at: onset, written: onset + Int64(n) - 1, raw: ring, fft: fft,
                              window: UnsafePointer(window)).medianDB.isNaN, "not yet: the onset's frame is not in")
        return meter.measure(at: onset, written: Int64(end), raw: ring, fft: fft, window: UnsafePointer(window))
    }

    /// A fixed pseudo-random sequence (the test must measure the same signal every run).
    private struct Noise {
        var state: UInt32
        mutating func next() -> Float {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(state >> 8) / Float(1 << 24) * 2 - 1
        }
    }

    /// A voiced room: harmonics of 150 Hz up to 4 kHz falling 6 dB an octave, loud, over faint white noise.
    private func voice(_ i: Int, noise: inout Noise) -> Float {
        let t = Float(i) / Float(rate)
        var v: Float = 0
        for h in 1...26 { v += 0.2 / Float(h) * sin(2 * .pi * 150 * Float(h) * t) }
        return v + 0.001 * noise.next()
    }

    @Test("a ringing click under a loud voice rises in most bins, where the voice is weak too")
    func clickUnderVoice() throws {
        var noise = Noise(state: 7)
        var clickNoise = Noise(state: 99)
        let measured = try rise { i in
            let click: Float = i >= Int(onset)  // broadband, ringing down over 3 ms as a ball's does
                ? 0.1 * exp(-Float(i - Int(onset)) / 144) * clickNoise.next() : 0
            return voice(i, noise: &noise) + click
        }
        #expect(measured.shareOver6DB > 0.5 && measured.medianDB > 10, "\(measured)")
    }

    @Test("a new harmonic note lifts only its own partials' bins: the median bin barely rises")
    func harmonicOnset() throws {
        var noise = Noise(state: 7)
        let measured = try rise { i in
            let t = Float(i) / Float(self.rate)
            var note: Float = 0
            if i >= Int(onset) { for h in 1...8 { note += 0.1 / Float(h) * sin(2 * .pi * 440 * Float(h) * t) } }
            return voice(i, noise: &noise) + note
        }
        #expect(measured.shareOver6DB < 0.2 && measured.medianDB < 3, "\(measured)")
    }
}
