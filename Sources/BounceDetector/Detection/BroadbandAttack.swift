import Foundation

/// How many bands of the onset band rise together at an onset: a struck shell or racket excites every band it
/// has modes in within its first millisecond, while a voiced syllable or a music note grows its partials one band
/// at a time (or only where its formants are). Used, optionally, on candidates that only the racket band saw.
///
/// Seven bands from 700 Hz to 10 kHz (each two cascaded band-pass sections), run over the raw signal from 20 ms
/// before the onset (settling) to 1.5 ms after it; a band rises when its energy in the first 1.5 ms exceeds its
/// energy 10…3 ms before the onset (clear of codec pre-echo) by `riseDB`. Fixed storage, no allocation per call.
struct BroadbandAttack {
    static let edges: [Double] = [700, 1000, 1500, 2000, 3000, 4000, 6000, 10_000]
    private let prototypes: UnsafeMutablePointer<Biquad>
    private let work: UnsafeMutablePointer<Biquad>
    let bands: Int
    private let sampleRate: Int

    init(sampleRate: Int) {
        self.sampleRate = sampleRate
        let top = 0.45 * Double(sampleRate)
        var count = 0
        for i in 0..<(Self.edges.count - 1) where Self.edges[i] * 1.2 < top { count += 1 }
        bands = count
        prototypes = .allocate(capacity: 2 * max(count, 1))
        work = .allocate(capacity: 2 * max(count, 1))
        for b in 0..<count {
            let f = Biquad.bandPass(low: Self.edges[b], high: Self.edges[b + 1], sampleRate: sampleRate)
            (prototypes + 2 * b).initialize(to: f)
            (prototypes + 2 * b + 1).initialize(to: f)
        }
        work.initialize(from: prototypes, count: 2 * count)
    }

    func deallocate() {
        prototypes.deallocate()
        work.deallocate()
    }

    /// Bands whose first 1.5 ms after `onset` exceed their 10…3 ms before it by `riseDB`.
    func risingBands(at onset: Int64, raw: SampleRing, riseDB: Float) -> Int {
        let ms = Double(sampleRate) / 1000
        let start = onset - Int64((20 * ms).rounded())
        let preStart = onset - Int64((10 * ms).rounded()), preEnd = onset - Int64((3 * ms).rounded())
        let postEnd = onset + Int64((1.5 * ms).rounded())
        let ratio = Float(pow(10, Double(riseDB) / 10)) * Float(postEnd - onset) / Float(preEnd - preStart)
        work.update(from: prototypes, count: 2 * bands)
        let samples = raw.span(from: start)
        let length = Int(postEnd - start)
        var rising = 0
        for b in 0..<bands {
            var first = work[2 * b], second = work[2 * b + 1]
            var pre: Float = 0, post: Float = 0
            for i in 0..<length {
                let y = second.process(first.process(samples[i]))
                let t = start + Int64(i)
                if t >= preStart, t < preEnd { pre += y * y } else if t >= onset { post += y * y }
            }
            if post > ratio * pre { rising += 1 }
        }
        return rising
    }
}
