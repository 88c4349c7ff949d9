import BounceDetector
import FuzzSupport

/// libFuzzer entry: parses the input as a WAV file and converts all of its samples (small chunks, so chunk
/// boundaries are crossed often). Checked: only `AudioError`, whole frames per chunk, exactly `frameCount` frames.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWAV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzCheck.bytes(data, size)
    FuzzCheck.expectingAudioErrors {
        var file = try WAVFile(bytes: bytes, chunkFrames: 61)
        let frames = try FuzzCheck.drain(&file)
        precondition(frames == file.frameCount, "WAV: \(frames) frames read, \(file.frameCount) declared")
    }
    return 0
}
