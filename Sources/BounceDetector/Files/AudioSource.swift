/// Sample rate and channel count of interleaved PCM.
public struct AudioFormat: Hashable, Sendable {
    /// Samples per second per channel.
    public var sampleRate: Int
    /// Interleaved channels (1 mono, 2 stereo).
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }
}

/// A decoded file that hands out its PCM as interleaved `Float` chunks in [-1, 1], front to back.
///
/// The buffer passed to `body` is reused between calls: copy what must outlive the call.
public protocol AudioSource {
    /// The format of every chunk.
    var format: AudioFormat { get }
    /// Calls `body` with successive interleaved chunks until the input ends; throws on bad data part-way.
    mutating func forEachChunk(_ body: (UnsafeBufferPointer<Float>) throws -> Void) throws
}

/// Whole-file PCM, for tests and small inputs.
public struct DecodedAudio: Sendable {
    /// Rate and channels of `samples`.
    public var format: AudioFormat
    /// Interleaved samples.
    public var samples: [Float]

    /// Frames (samples per channel).
    public var frameCount: Int { format.channels > 0 ? samples.count / format.channels : 0 }
}

extension AudioSource {
    /// Reads the whole source into memory.
    public mutating func readAll() throws -> DecodedAudio {
        var samples: [Float] = []
        try forEachChunk { chunk in samples.append(contentsOf: chunk) }
        return DecodedAudio(format: format, samples: samples)
    }
}
