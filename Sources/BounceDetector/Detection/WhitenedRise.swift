import Foundation

/// How an onset rises bin by bin over the room just before it: each FFT bin from 700 Hz to 10 kHz in the onset's
/// first frame, against the mean of four frames that end 3 ms before it (the detector's frame and window, hops a
/// quarter frame apart).
///
/// A band's rise (`OnsetBands`) is its power over its power: where a talker's loud partials fill a band, a ball's
/// ring adds little to the band's sum. Bin by bin, each against its own level (the room's spectrum whitened away),
/// a struck object's broadband ring counts in every bin alike, the ones the voice leaves weak too, while a voice's or
/// a note's onset lifts the bins of its own partials. Timbre-free: it asks how many bins rise and by how much,
/// never which. The frame starts at the onset, so its window weighs the ring's first milliseconds after the attack.
package struct WhitenedRise: Sendable {
    /// The median bin's rise (dB).
    package var medianDB: Float
    /// The rise a quarter of the bins stay under (dB).
    package var lowerQuartileDB: Float
    /// The share of the bins that rise by 6 dB or more.
    package var shareOver6DB: Float
    /// The share of the bins that rise by 3 dB or more.
    package var shareOver3DB: Float
    /// The mean of the bins' power ratios (dB): the whitened energy's rise.
    package var meanDB: Float

    /// Not measured (the ring does not yet hold the onset's frame).
    package static let unmeasured = WhitenedRise(medianDB: .nan, lowerQuartileDB: .nan, shareOver6DB: .nan,
                                         shareOver3DB: .nan, meanDB: .nan)
}

/// Measures `WhitenedRise` with the detector's FFT and window; its buffers are allocated in `init`, `measure`
/// allocates nothing.
final class WhitenedRiseMeter {
    private let size: Int
    private let bins: ClosedRange<Int>
    private let gap: Int64
    private let before: UnsafeMutablePointer<Float>
    private let rises: UnsafeMutablePointer<Float>

    /// Frames of `fftSize` samples; bins `bins` (the detector's band, 700 Hz–10 kHz); the reference frames end
    /// 3 ms before the onset at `sampleRate`.
    init(fftSize: Int, bins: ClosedRange<Int>, sampleRate: Int) {
        size = fftSize
        self.bins = bins
        gap = Int64((0.003 * Double(sampleRate)).rounded())
        before = .allocate(capacity: bins.count)
        rises = .allocate(capacity: bins.count)
    }

    deinit {
        before.deallocate()
        rises.deallocate()
    }

    /// Samples the ring must hold before the onset.
    var history: Int { Int(gap) + size + 3 * size / 4 }

    /// The rise at `onset`; `unmeasured` until `written` reaches the end of the onset's frame. Uses (and overwrites)
    /// `fft`'s buffers.
    func measure(at onset: Int64, written: Int64, raw: SampleRing, fft: RealFFT,
                 window: UnsafePointer<Float>) -> WhitenedRise {
        guard onset - Int64(history) >= 0, written >= onset + Int64(size) else { return .unmeasured }
        let count = bins.count
        for i in 0..<count { before[i] = 0 }
        for k in 0..<4 {
            transform(from: onset - gap - Int64(size) - Int64(k * size / 4), raw: raw, fft: fft, window: window)
            fft.powers(from: bins.lowerBound, count: count, into: rises)
            for i in 0..<count { before[i] += rises[i] }
        }
        transform(from: onset, raw: raw, fft: fft, window: window)
        fft.powers(from: bins.lowerBound, count: count, into: rises)
        let tiny: Float = 1e-12
        var meanRatio: Float = 0, over6 = 0, over3 = 0
        for i in 0..<count {
            let ratio = (rises[i] + tiny) / (before[i] / 4 + tiny)
            meanRatio += ratio
            let dB = 10 * log10(ratio)
            rises[i] = dB
            if dB >= 6 { over6 += 1 }
            if dB >= 3 { over3 += 1 }
        }
        sortAscending(rises, count: count)
        return WhitenedRise(medianDB: percentile(0.5, count: count), lowerQuartileDB: percentile(0.25, count: count),
                            shareOver6DB: Float(over6) / Float(count), shareOver3DB: Float(over3) / Float(count),
                            meanDB: 10 * log10(meanRatio / Float(count)))
    }

    private func transform(from start: Int64, raw: SampleRing, fft: RealFFT, window: UnsafePointer<Float>) {
        let frame = raw.span(from: start)
        for i in 0..<size { fft.input[i] = frame[i] * window[i] }
        fft.forward()
    }

    /// The `q` quantile of the sorted rises, interpolated between neighbours (numpy's default).
    private func percentile(_ q: Float, count: Int) -> Float {
        let position = q * Float(count - 1)
        let low = Int(position)
        let high = min(low + 1, count - 1)
        return rises[low] + (position - Float(low)) * (rises[high] - rises[low])
    }

    /// Insertion sort: some fifty values, once per judged candidate (the standard library's sort may allocate its
    /// merge buffer).
    private func sortAscending(_ values: UnsafeMutablePointer<Float>, count: Int) {
        guard count > 1 else { return }
        for i in 1..<count {
            let value = values[i]
            var j = i - 1
            while j >= 0, values[j] > value {
                values[j + 1] = values[j]
                j -= 1
            }
            values[j + 1] = value
        }
    }
}
