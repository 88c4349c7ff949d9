import Foundation

/// Finds an impact's first sample in the high-passed signal, after the spectral trigger said "an impact is here".
///
/// The spectral frame only says the onset lies somewhere in the last frame; the time-domain signal says where.
/// From the loudest sample of the search region it walks back along the impact's main rising edge until the signal
/// has stayed below the onset level (a share of that peak, and clear of the local noise) for longer than half a
/// period of the lowest mode. A ball's shell modes start at full amplitude within 0.2 ms, so this lands within a
/// fraction of a millisecond of the true start; codec pre-echo and isolated noise spikes before the edge, which
/// stay below the level, do not move it. Finally it extends the edge back over contiguous samples above the noise
/// (and a tenth of the peak) by at most `maximumExtension` samples: an impact whose modes build up over a few
/// tenths of a millisecond is timed at its first sample, while pre-echo can pull the onset by no more than that.
enum OnsetRefiner {
    /// Tunables, in samples and ratios.
    struct Settings {
        /// Samples before the search region whose RMS is the local noise.
        var noiseSamples: Int
        /// The onset level is at least this many noise RMS…
        var noiseFactor: Float
        /// …and at least this share of the region's peak.
        var peakShare: Float
        /// A run of this many samples below the level ends the edge (about 0.6 ms: half a period at 800 Hz).
        var gapSamples: Int
        /// How far (samples) the onset may move back from the main edge over low-level contiguous signal.
        var maximumExtension: Int
        /// …over samples at least this share of the peak (and clear of the noise).
        var extensionShare: Float = 0.1
    }

    /// What the refiner found: the onset, the edge's peak magnitude and the noise RMS it was judged against.
    struct Edge {
        var onset: Int64
        var peak: Float
        var noiseRMS: Float
    }

    /// How far (samples) an edge found where an impact clears its background lies behind the impact's first sample
    /// (`DetectorParameters.onsetLagSeconds`): an attack growing over `attackSeconds` clears a background at
    /// b = 10^(−`riseDB` / 20) of its amplitude `attackSeconds` × (b − `share`) after the `share` of its peak that
    /// times its first sample. 0 for an impact far over its background (or an unmeasured rise), at most
    /// `attackSeconds` × (1 − `share`).
    static func lag(riseDB: Float, attackSeconds: Double, share: Float, sampleRate: Int) -> Int64 {
        guard riseDB.isFinite, attackSeconds > 0 else { return 0 }
        let background = min(1, pow(10, -riseDB / 20))
        return Int64((attackSeconds * Double(max(0, background - share)) * Double(sampleRate)).rounded())
    }

    /// The onset's absolute index in `[searchStart, searchEnd)`, or nil if nothing rises above the noise.
    static func onset(in ring: SampleRing, searchStart: Int64, searchEnd: Int64, settings: Settings) -> Int64? {
        edge(in: ring, searchStart: searchStart, searchEnd: searchEnd, settings: settings)?.onset
    }

    /// The impact's edge in `[searchStart, searchEnd)`, or nil if nothing rises above the noise. `noiseRMS`, when
    /// given, replaces the RMS of the samples before `searchStart` (used when those may already be codec pre-echo).
    static func edge(in ring: SampleRing, searchStart: Int64, searchEnd: Int64, settings: Settings,
                     noiseRMS knownNoise: Float? = nil) -> Edge? {
        var index: Int64
        let noiseRMS: Float
        if let knownNoise {
            noiseRMS = knownNoise
        } else {
            var noise: Float = 0
            index = searchStart - Int64(settings.noiseSamples)
            while index < searchStart {
                let y = ring[index]
                noise += y * y
                index += 1
            }
            noiseRMS = (noise / Float(max(settings.noiseSamples, 1))).squareRoot()
        }
        var peak: Float = 0
        var peakIndex = searchStart
        index = searchStart
        while index < searchEnd {
            let magnitude = abs(ring[index])
            if magnitude > peak {
                peak = magnitude
                peakIndex = index
            }
            index += 1
        }
        let level = max(settings.noiseFactor * noiseRMS, settings.peakShare * peak)
        guard peak > level else { return nil }
        var onset = peakIndex
        var quiet = 0
        index = peakIndex - 1
        while index >= searchStart, quiet < settings.gapSamples {
            if abs(ring[index]) >= level {
                onset = index
                quiet = 0
            } else {
                quiet += 1
            }
            index -= 1
        }
        // Extend over the edge's quiet first samples: contiguous (gaps under a quarter of the edge gap) and above
        // both the noise and a tenth of the peak.
        let low = max(settings.noiseFactor * noiseRMS, settings.extensionShare * peak)
        let limit = max(searchStart, onset - Int64(settings.maximumExtension))
        let shortGap = max(1, settings.gapSamples / 4)
        quiet = 0
        index = onset - 1
        while index >= limit, quiet < shortGap {
            if abs(ring[index]) >= low {
                onset = index
                quiet = 0
            } else {
                quiet += 1
            }
            index -= 1
        }
        return Edge(onset: onset, peak: peak, noiseRMS: noiseRMS)
    }
}
