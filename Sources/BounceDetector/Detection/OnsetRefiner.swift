/// Finds an impact's first sample in the high-passed signal, after the spectral trigger said "an impact is here".
///
/// The spectral frame only says the onset lies somewhere in the last frame; the time-domain signal says where:
/// the first sample whose magnitude clears both the local noise (measured just before the search region) and a
/// share of the event's own peak. A ball's shell modes start at full amplitude within 0.2 ms, so this lands within
/// a fraction of a millisecond of the true start.
enum OnsetRefiner {
    /// The onset's absolute index in `[searchStart, searchEnd)`, or nil if nothing rises above the noise.
    static func onset(in ring: SampleRing, searchStart: Int64, searchEnd: Int64, noiseSamples: Int,
                      noiseFactor: Float, peakShare: Float) -> Int64? {
        var noise: Float = 0
        var index = searchStart - Int64(noiseSamples)
        while index < searchStart {
            let y = ring[index]
            noise += y * y
            index += 1
        }
        let noiseRMS = (noise / Float(max(noiseSamples, 1))).squareRoot()
        var peak: Float = 0
        index = searchStart
        while index < searchEnd {
            peak = max(peak, abs(ring[index]))
            index += 1
        }
        let level = max(noiseFactor * noiseRMS, peakShare * peak)
        guard peak > level || (peak > 0 && peak >= level && noiseRMS == 0) else { return nil }
        index = searchStart
        while index < searchEnd {
            if abs(ring[index]) >= level { return index }
            index += 1
        }
        return nil
    }
}
