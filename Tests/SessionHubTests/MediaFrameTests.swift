import NIOCore
@testable import PongClient
@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Binary media frames")
struct MediaFrameTests {
    private func parse(_ bytes: [UInt8]) -> Result<MediaFrame, MediaFrameError> {
        bytes.withUnsafeBytes { raw in Result { () throws(MediaFrameError) in try MediaFrame.parse(raw) } }
    }

    private func header(kind: UInt8, codec: UInt8) -> [UInt8] {
        [kind, codec] + [UInt8](repeating: 0, count: MediaFrame.headerBytes - 2)
    }

    @Test("the header is kind, codec, seq (u32 BE), captureTime (µs, u64 BE), then the payload")
    func layout() {
        let bytes = MediaFrame.encode(codec: .h264, sequence: 0x0102_0304, captureTime: 0x0102_0304_0506_0708,
                                      payload: [0xAA, 0xBB])
        #expect(bytes == [2, 1, 1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8, 0xAA, 0xBB])
    }

    @Test("every kind and codec parses, and round-trips through the encoder", arguments: MediaFrame.Codec.allCases)
    func everyCodec(codec: MediaFrame.Codec) throws {
        let payload: [UInt8] = [9, 8, 7, 6, 5]
        let bytes = MediaFrame.encode(codec: codec, sequence: .max, captureTime: 1_700_000_000_123_456,
                                      payload: payload)
        let frame = try parse(bytes).get()
        #expect(frame == MediaFrame(codec: codec, sequence: .max, captureTime: 1_700_000_000_123_456,
                                    payloadRange: 14..<19))
        #expect(frame.byteCount == 19 && frame.payloadCount == 5)
        let read = bytes.withUnsafeBytes { Array(frame.payload(in: $0)) }
        #expect(read == payload)
    }

    @Test("kind and codec numbers are the contract's", arguments: [
        (MediaFrame.Codec.opus, MediaFrame.Kind.audio, UInt8(1), UInt8(1)),
        (.aac, .audio, 1, 2), (.h264, .video, 2, 1), (.vp8, .video, 2, 2), (.filler, .uploadFiller, 3, 0),
    ])
    func numbers(codec: MediaFrame.Codec, kind: MediaFrame.Kind, kindByte: UInt8, codecByte: UInt8) {
        #expect(codec.kind == kind && kind.rawValue == kindByte && codec.wireValue == codecByte)
        #expect(MediaFrame.Codec(kind: kind, wireValue: codecByte) == codec)
    }

    @Test("codecs map to the stream's declared codecs")
    func declaredCodecs() {
        #expect(MediaFrame.Codec.opus.audioCodec == .opus && MediaFrame.Codec.aac.audioCodec == .aac)
        #expect(MediaFrame.Codec.h264.videoCodec == .h264 && MediaFrame.Codec.vp8.videoCodec == .vp8)
        #expect(MediaFrame.Codec.filler.audioCodec == nil && MediaFrame.Codec.filler.videoCodec == nil)
        #expect(MediaFrame.Codec.opus.videoCodec == nil && MediaFrame.Codec.h264.audioCodec == nil)
    }

    @Test("a runt shorter than the header is frame_too_short", arguments: [0, 1, 2, 6, 13])
    func runt(count: Int) {
        let bytes = [UInt8](MediaFrame.encode(codec: .opus, sequence: 1, captureTime: 2, payload: [1]).prefix(count))
        #expect(parse(bytes) == .failure(.tooShort(count: count)))
        if case .failure(let error) = parse(bytes) {
            #expect(error.code == "frame_too_short" && error.apiError.status == 400)
            #expect(error.message == "Media frame of \(count) bytes is shorter than its 14-byte header")
        }
    }

    @Test("256 KB is the largest frame; one byte more is frame_too_large (413)")
    func oversized() throws {
        let limit = 256 * 1024
        let fits = MediaFrame.encode(codec: .h264, sequence: 1, captureTime: 2,
                                     payload: [UInt8](repeating: 7, count: limit - 14))
        #expect(try parse(fits).get().payloadCount == limit - 14)
        let over = fits + [7]
        #expect(parse(over) == .failure(.tooLarge(count: limit + 1, limit: limit)))
        if case .failure(let error) = parse(over) {
            #expect(error.code == "frame_too_large" && error.apiError.status == 413)
            #expect(error.message == "Media frames are limited to 262144 bytes")
        }
    }

    @Test("a kind other than 1, 2, 3 is unknown_frame_kind", arguments: [UInt8(0), 4, 255])
    func unknownKind(kind: UInt8) {
        let result = parse(header(kind: kind, codec: 1) + [1, 2])
        #expect(result == .failure(.unknownKind(kind)))
        if case .failure(let error) = result {
            #expect(error.code == "unknown_frame_kind" && error.message == "Unknown media frame kind \(kind)")
        }
    }

    @Test("a codec the kind does not define is unknown_codec", arguments: [
        (UInt8(1), UInt8(0), MediaFrame.Kind.audio), (1, 3, .audio), (2, 0, .video), (2, 3, .video),
        (3, 1, .uploadFiller), (3, 255, .uploadFiller),
    ])
    func unknownCodec(kind: UInt8, codec: UInt8, expected: MediaFrame.Kind) {
        let result = parse(header(kind: kind, codec: codec) + [1])
        #expect(result == .failure(.unknownCodec(codec, kind: expected)))
        if case .failure(let error) = result { #expect(error.code == "unknown_codec") }
    }

    @Test("audio or video without payload is empty_payload; empty filler is fine")
    func emptyPayload() throws {
        for codec in [MediaFrame.Codec.opus, .aac, .h264, .vp8] {
            let result = parse(MediaFrame.encode(codec: codec, sequence: 1, captureTime: 1, payload: []))
            #expect(result == .failure(.emptyPayload(kind: codec.kind)))
            if case .failure(let error) = result { #expect(error.code == "empty_payload") }
        }
        let filler = try parse(MediaFrame.encode(codec: .filler, sequence: 1, captureTime: 1, payload: [])).get()
        #expect(filler.payloadCount == 0 && filler.kind == .uploadFiller)
        #expect(MediaFrameError.emptyPayload(kind: .video).message == "Empty video frame")
        #expect(MediaFrameError.unknownCodec(9, kind: .audio).message == "Unknown codec 9 for audio frames")
    }

    @Test("parsing a ByteBuffer reads from its reader index and slices the payload without copying")
    func byteBuffer() throws {
        var buffer = ByteBufferAllocator().buffer(capacity: 64)
        buffer.writeBytes([0xFF, 0xFF, 0xFF])
        buffer.moveReaderIndex(forwardBy: 3)
        let written = MediaFrame.write(codec: .vp8, sequence: 77, captureTime: 123_456, payload: [1, 2, 3],
                                       into: &buffer)
        #expect(written == 17)
        #expect(Array(buffer.readableBytesView)
                == MediaFrame.encode(codec: .vp8, sequence: 77, captureTime: 123_456, payload: [1, 2, 3]))
        let frame = try MediaFrame.parse(buffer)
        #expect(frame.codec == .vp8 && frame.sequence == 77 && frame.captureTime == 123_456)
        let payload = try #require(frame.payload(in: buffer))
        #expect(Array(payload.readableBytesView) == [1, 2, 3])
        #expect(buffer.readerIndex == 3)
        #expect(throws: MediaFrameError.tooShort(count: 2)) { try MediaFrame.parse(ByteBuffer(bytes: [1, 1])) }
    }

    @Test("payload(in:) never reaches past the buffer it is given")
    func clampedPayload() {
        let frame = MediaFrame(codec: .opus, sequence: 0, captureTime: 0, payloadRange: 14..<100)
        let count = [UInt8](repeating: 0, count: 20).withUnsafeBytes { frame.payload(in: $0).count }
        #expect(count == 6)
        #expect(frame.payload(in: ByteBuffer(bytes: [1, 2, 3])) == nil)
    }
}
