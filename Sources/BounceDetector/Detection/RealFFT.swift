import CAudio

/// A forward real FFT of a fixed power-of-two size through libavutil's `av_tx` (AV_TX_FLOAT_RDFT).
///
/// Write the frame into `input`, call `forward()`, read `size/2 + 1` bins from `output`. Buffers are allocated once.
final class RealFFT {
    /// Transform length in samples.
    let size: Int
    /// `size` real samples to transform.
    let input: UnsafeMutablePointer<Float>
    /// `size/2 + 1` complex bins, interleaved (re, im).
    let output: UnsafeMutablePointer<Float>

    private var context: OpaquePointer?
    private let transform: av_tx_fn

    init(size: Int) throws(AudioError) {
        var context: OpaquePointer?
        var transform: av_tx_fn?
        var scale: Float = 1
        let status = av_tx_init(&context, &transform, AV_TX_FLOAT_RDFT, 0, Int32(size), &scale, 0)
        guard status >= 0, let transform else {
            throw .codec("FFT: av_tx_init(RDFT, \(size)) failed: \(AACFrameDecoder.describe(status))")
        }
        self.size = size
        self.context = context
        self.transform = transform
        // av_tx wants SIMD-aligned buffers; the extra complex bin is the Nyquist term.
        input = UnsafeMutableRawPointer.allocate(byteCount: size * 4, alignment: 64).bindMemory(to: Float.self, capacity: size)
        input.initialize(repeating: 0, count: size)
        output = UnsafeMutableRawPointer.allocate(byteCount: (size + 2) * 4, alignment: 64)
            .bindMemory(to: Float.self, capacity: size + 2)
        output.initialize(repeating: 0, count: size + 2)
    }

    deinit {
        av_tx_uninit(&context)
        input.deallocate()
        output.deallocate()
    }

    /// Transforms `input` into `output`.
    @inline(__always)
    func forward() {
        transform(context, output, input, MemoryLayout<Float>.stride)
    }

    /// |X_k|² of bins `first ..< first + count` after `forward()` into `out`, eight at a time (each the same
    /// arithmetic as `power(_:)`, so bit for bit its result).
    @inline(__always)
    func powers(from first: Int, count: Int, into out: UnsafeMutablePointer<Float>) {
        var i = 0
        while i + 8 <= count {
            let pairs = UnsafeRawPointer(output + 2 * (first + i)).loadUnaligned(as: SIMD16<Float>.self)
            let power = pairs.evenHalf * pairs.evenHalf + pairs.oddHalf * pairs.oddHalf
            UnsafeMutableRawPointer(out + i).storeBytes(of: power, as: SIMD8<Float>.self)
            i += 8
        }
        while i < count {
            out[i] = power(first + i)
            i += 1
        }
    }

    /// |X_k|² of bin `k` after `forward()`.
    @inline(__always)
    func power(_ k: Int) -> Float {
        let re = output[2 * k], im = output[2 * k + 1]
        return re * re + im * im
    }
}
