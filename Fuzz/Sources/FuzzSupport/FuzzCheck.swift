import BounceDetector

/// The contract every harness checks: a reader answers any input with a value or an `AudioError`, never a trap,
/// and what it hands out agrees with what it declared.
public enum FuzzCheck {
    /// Runs `body`; an `AudioError` is the documented answer to bad input, any other error is a bug (trap, so
    /// libFuzzer saves the input).
    public static func expectingAudioErrors(_ body: () throws -> Void) {
        do {
            try body()
        } catch is AudioError {
        } catch {
            fatalError("a reader threw \(type(of: error)), not AudioError: \(error)")
        }
    }

    /// Reads `source` to its end, checking every chunk holds whole frames; returns the frames handed out.
    @discardableResult
    public static func drain(_ source: inout some AudioSource) throws -> Int {
        let channels = source.format.channels
        precondition(channels > 0, "a source declared \(channels) channels")
        precondition(source.format.sampleRate > 0, "a source declared a sample rate of \(source.format.sampleRate)")
        var frames = 0
        try source.forEachChunk { chunk in
            precondition(chunk.count % channels == 0, "a chunk of \(chunk.count) samples splits a \(channels)-channel frame")
            frames += chunk.count / channels
        }
        return frames
    }

    /// The fuzzer's input as an array.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }
}
