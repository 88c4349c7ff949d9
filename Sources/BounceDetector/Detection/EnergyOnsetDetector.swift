/// A plain streaming energy-rise detector: the interim detector until the spectral BounceDetector lands.
///
/// It compares the energy of each 2 ms hop with a slow running average of the background and reports an
/// onset (kind `unknown`) when a hop is more than `ratio` times louder, then stays quiet for `refractory`.
/// Chunks of any size; stereo is mixed down. Allocates nothing per call.
public struct EnergyOnsetDetector {
    /// Input format.
    public let format: AudioFormat
    private let hop: Int
    private let ratio: Float
    private let refractoryHops: Int
    private var hopEnergy: Float = 0
    private var hopFill = 0
    private var background: Float = 1e-8
    private var hopsSinceOnset = Int.max / 2
    private var hopsSeen = 0
    private var framesSeen: Int64 = 0

    /// Creates a detector for `format`; `ratio` is the energy jump (×) that counts as an onset.
    public init(format: AudioFormat, ratio: Float = 8, refractory: Double = 0.030) {
        self.format = format
        self.hop = max(1, format.sampleRate / 500)
        self.ratio = ratio
        self.refractoryHops = Int(refractory * 500)
    }

    /// Feeds interleaved samples; calls `onImpact` for each onset found.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>, onImpact: (Impact) -> Void) {
        let channels = max(1, format.channels)
        let frames = samples.count / channels
        for f in 0..<frames {
            var mono: Float = 0
            for c in 0..<channels { mono += samples[f * channels + c] }
            mono /= Float(channels)
            hopEnergy += mono * mono
            hopFill += 1
            framesSeen += 1
            guard hopFill == hop else { continue }
            let energy = hopEnergy / Float(hop)
            hopEnergy = 0
            hopFill = 0
            hopsSeen += 1
            hopsSinceOnset += 1
            if hopsSeen > 25, energy > background * ratio, hopsSinceOnset > refractoryHops {
                hopsSinceOnset = 0
                let onset = framesSeen - Int64(hop)
                let confidence = min(1, (energy / (background * ratio) - 1) / 4 + 0.5)
                onImpact(Impact(frame: onset, time: Double(onset) / Double(format.sampleRate), kind: .unknown,
                                confidence: confidence))
            }
            background += (min(energy, background * 4) - background) * 0.02
        }
    }
}
