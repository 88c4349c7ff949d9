import Foundation
import Testing
@testable import BounceDetector

/// `RealFFT`: the split of libavutil's half-length complex FFT into the real transform's bins, against the DFT.
@Suite("Real FFT")
struct RealFFTTests {
    @Test("""
        every bin of a noise frame matches the DFT (computed in Double) to 1e-5 of the frame's energy, at every size \
        the detector may use and the smallest ones (the eight-bin blocks and the one-bin tail, the DC, middle and \
        Nyquist bins), and nothing of the input is changed
        """, arguments: [4, 8, 16, 32, 64, 128, 256, 512, 1024])
    func matchesTheDFT(size: Int) throws {
        let fft = try RealFFT(size: size)
        var noise = TestNoise(seed: UInt64(size))
        let frame = (0..<size).map { _ in noise.next() }
        for i in 0..<size { fft.input[i] = frame[i] }
        fft.forward()
        let energy = frame.reduce(0) { $0 + Double($1) * Double($1) }
        var worst = 0.0
        for k in 0...size / 2 {
            var re = 0.0, im = 0.0
            for n in 0..<size {
                let angle = -2 * Double.pi * Double(k * n % size) / Double(size)
                re += Double(frame[n]) * cos(angle)
                im += Double(frame[n]) * sin(angle)
            }
            worst = max(worst, abs(Double(fft.output[2 * k]) - re), abs(Double(fft.output[2 * k + 1]) - im))
        }
        #expect(worst <= 1e-5 * energy.squareRoot() * Double(size).squareRoot(), "size \(size): error \(worst)")
        #expect((0..<size).allSatisfy { fft.input[$0] == frame[$0] }, "the input was changed")
        #expect(fft.output[1] == 0 && fft.output[size + 1] == 0, "DC and Nyquist are real")
    }

    @Test("a size that is not a power of two is refused with a clear error")
    func refusesOtherSizes() {
        #expect(throws: AudioError.self) { try RealFFT(size: 100) }
        #expect(throws: AudioError.self) { try RealFFT(size: 2) }
    }
}
