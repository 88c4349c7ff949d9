import BounceDetector
import FuzzSupport

/// libFuzzer entry: reads the input as an Ogg Opus file and decodes it with libopus, first as it is (CRC checks
/// included), then with every page's CRC repaired so mutations reach the packet, header and Opus parsing.
/// Checked: only `AudioError`, whole frames per chunk, never more frames than `frameCount`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOgg(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzCheck.bytes(data, size)
    read(bytes)
    if let repaired = OggPageRepair.repaired(bytes) { read(repaired) }
    return 0
}

private func read(_ bytes: [UInt8]) {
    FuzzCheck.expectingAudioErrors {
        var file = try OggOpusFile(bytes: bytes)
        let frames = try FuzzCheck.drain(&file)
        precondition(frames <= file.frameCount, "Ogg Opus: \(frames) frames read, \(file.frameCount) declared")
    }
}
