import BounceDetector
import FuzzSupport

/// One decoder for every input, as a live stream has one for all the frames a phone sends (`AudioIngest`): it must
/// stay usable whatever came before. (A crash that depends on earlier inputs shows in libFuzzer's log as a unit that
/// does not crash alone: rerun the run's corpus with `-runs=0` in the logged order.)
nonisolated(unsafe) private let streamDecoder = try! AACFrameDecoder()

/// libFuzzer entry: splits the input into ADTS frames and decodes them with libavcodec's AAC decoder, both through
/// `ADTSFile` and as one phone frame through a long-lived `AACFrameDecoder` (a phone's AAC payload is any bytes).
/// Checked: only `AudioError`, whole frames per chunk, frame ranges that tile the file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzADTS(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzCheck.bytes(data, size)
    FuzzCheck.expectingAudioErrors {
        let frames = try ADTSHeader.frames(in: bytes)
        var offset = 0
        for range in frames {
            precondition(range.lowerBound == offset && range.count >= 7, "ADTS: frame \(range) does not follow \(offset)")
            offset = range.upperBound
        }
        precondition(offset == bytes.count, "ADTS: frames end at \(offset) of \(bytes.count)")
        var file = try ADTSFile(bytes: bytes)
        try FuzzCheck.drain(&file)
    }
    FuzzCheck.expectingAudioErrors {
        _ = try streamDecoder.decode(bytes)
    }
    return 0
}
