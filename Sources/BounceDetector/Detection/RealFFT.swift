import CAudio

/// A forward real FFT of a fixed power-of-two size: libavutil's complex FFT (`av_tx`, AV_TX_FLOAT_FFT) of the frame's
/// `size/2` even/odd sample pairs, then the split into the `size/2 + 1` bins of the real transform here, eight bins
/// at a time. (libavutil 57's own AV_TX_FLOAT_RDFT does that split one bin at a time in C: it was 14 % of `pongd
/// detect`'s CPU, as much as the complex FFT itself; BENCHMARKS.md.)
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
    /// cos and −sin of 2πk/`size` for k in 0 ..< `size/4`: the odd samples' twiddle factors.
    private let twiddleRe: UnsafeMutablePointer<Float>
    private let twiddleIm: UnsafeMutablePointer<Float>

    init(size: Int) throws(AudioError) {
        var context: OpaquePointer?
        var transform: av_tx_fn?
        var scale: Float = 1
        guard size >= 4, size & (size - 1) == 0 else { throw .codec("FFT: size \(size) is not a power of two >= 4") }
        let status = av_tx_init(&context, &transform, AV_TX_FLOAT_FFT, 0, Int32(size / 2), &scale, 0)
        guard status >= 0, let transform else {
            throw .codec("FFT: av_tx_init(FFT, \(size / 2)) failed: \(AACFrameDecoder.describe(status))")
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
        let quarter = size / 4
        twiddleRe = .allocate(capacity: quarter)
        twiddleIm = .allocate(capacity: quarter)
        for k in 0..<quarter {
            let angle = 2 * Double.pi * Double(k) / Double(size)
            twiddleRe[k] = Float(cos(angle))
            twiddleIm[k] = Float(-sin(angle))
        }
    }

    deinit {
        av_tx_uninit(&context)
        input.deallocate()
        output.deallocate()
        twiddleRe.deallocate()
        twiddleIm.deallocate()
    }

    /// Transforms `input` into `output`.
    func forward() {
        // Z = FFT of z[n] = x[2n] + i x[2n+1] (the input read as M = size/2 complex samples), into `output`.
        transform(context, output, input, 2 * MemoryLayout<Float>.stride)
        let m = size / 2
        let z = output
        // With Z[M] = Z[0] (the transform is periodic), bins k and M − k come together for every k in 0 ..< M/2 (each
        // pair its own four numbers, so in place): with E = (Z[k] + conj Z[M−k]) / 2 (the even samples' transform),
        // O = (Z[k] − conj Z[M−k]) / 2i (the odd ones') and W = e^(−2πik/size), X[k] = E + W·O and
        // X[M−k] = conj(E − W·O). (At k = 0 that is X[0] = Re Z[0] + Im Z[0], X[M] = Re Z[0] − Im Z[0].) The
        // middle bin pairs with itself: X[M/2] = conj Z[M/2].
        z[2 * m] = z[0]
        z[2 * m + 1] = z[1]
        z[m + 1] = -z[m + 1]
        var k = 0
        while k + 8 <= m / 2 {
            let low = Self.load16(z + 2 * k), high = Self.load16(z + 2 * (m - k - 7))
            let (ar, ai) = (low.evenHalf, low.oddHalf)
            let (br, bi) = (Self.reversed(high.evenHalf), Self.reversed(high.oddHalf))
            let half = SIMD8<Float>(repeating: 0.5)
            let (er, ei) = (half * (ar + br), half * (ai - bi))
            let (or, oi) = (half * (ai + bi), half * (br - ar))
            let wr = loadEight(twiddleRe + k), wi = loadEight(twiddleIm + k)
            let (tr, ti) = (wr * or - wi * oi, wr * oi + wi * or)
            Self.store(re: er + tr, im: ei + ti, at: z + 2 * k)
            Self.store(re: Self.reversed(er - tr), im: Self.reversed(ti - ei), at: z + 2 * (m - k - 7))
            k += 8
        }
        while k < m / 2 {
            let (ar, ai, br, bi) = (z[2 * k], z[2 * k + 1], z[2 * (m - k)], z[2 * (m - k) + 1])
            let (er, ei) = (0.5 * (ar + br), 0.5 * (ai - bi))
            let (or, oi) = (0.5 * (ai + bi), 0.5 * (br - ar))
            let (wr, wi) = (twiddleRe[k], twiddleIm[k])
            let (tr, ti) = (wr * or - wi * oi, wr * oi + wi * or)
            (z[2 * k], z[2 * k + 1]) = (er + tr, ei + ti)
            (z[2 * (m - k)], z[2 * (m - k) + 1]) = (er - tr, ti - ei)
            k += 1
        }
    }

    @inline(__always)
    private static func load16(_ pointer: UnsafeMutablePointer<Float>) -> SIMD16<Float> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD16<Float>.self)
    }

    @inline(__always)
    private static func reversed(_ v: SIMD8<Float>) -> SIMD8<Float> {
        SIMD8(v[7], v[6], v[5], v[4], v[3], v[2], v[1], v[0])
    }

    /// Eight complex numbers interleaved (re, im) at `pointer`.
    @inline(__always)
    private static func store(re: SIMD8<Float>, im: SIMD8<Float>, at pointer: UnsafeMutablePointer<Float>) {
        let pairs = SIMD16(re[0], im[0], re[1], im[1], re[2], im[2], re[3], im[3],
                           re[4], im[4], re[5], im[5], re[6], im[6], re[7], im[7])
        UnsafeMutableRawPointer(pointer).storeBytes(of: pairs, as: SIMD16<Float>.self)
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
