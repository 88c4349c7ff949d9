/// One binary WebSocket message of the phone → server media stream (DESIGN.md, "Binary frames"):
///
///     [kind u8][codec u8][seq u32 BE][captureTime µs u64 BE][payload]
///
/// Parsing reads the 14-byte header in place and says where the payload is (`payloadRange`, byte offsets from the
/// frame's first byte); it copies nothing, allocates nothing, and never traps on what a client sent: every malformed
/// input is a `MediaFrameError`. Encoding lives in `MediaFrame+Encoding.swift`; NIO `ByteBuffer` entry points are
/// the server's (parsing, SessionHub) and the client's (writing, PongClient), each in `MediaFrame+ByteBuffer.swift`.
public struct MediaFrame: Hashable, Sendable {
    /// Bytes before the payload.
    package static let headerBytes = 14
    /// The largest frame accepted, header included (256 KB, the WebSocket frame limit).
    package static let maxBytes = 256 * 1024

    /// The payload's codec (which also fixes the frame's kind).
    package var codec: Codec
    /// The sender's frame counter (`seq`); wraps around, gaps mean lost frames.
    package var sequence: UInt32
    /// Capture time in µs on the phone's clock.
    package var captureTime: UInt64
    /// Where the payload lies, in bytes from the frame's start: `headerBytes..<frame size`.
    package var payloadRange: Range<Int>

    /// Audio, video or upload-probe filler.
    package var kind: Kind { codec.kind }
    /// Payload size in bytes.
    package var payloadCount: Int { payloadRange.count }
    /// Size of the whole frame, header included.
    package var byteCount: Int { payloadRange.upperBound }

    /// A frame description; `payloadRange` is normally `headerBytes..<frame size`.
    package init(codec: Codec, sequence: UInt32, captureTime: UInt64, payloadRange: Range<Int>) {
        self.codec = codec
        self.sequence = sequence
        self.captureTime = captureTime
        self.payloadRange = payloadRange
    }

    /// Reads the header of the frame that fills `bytes`.
    ///
    /// - Throws: `frame_too_short`, `frame_too_large`, `unknown_frame_kind`, `unknown_codec`, `empty_payload`.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(MediaFrameError) -> MediaFrame {
        let count = bytes.count
        guard count >= headerBytes else { throw .tooShort(count: count) }
        guard count <= maxBytes else { throw .tooLarge(count: count, limit: maxBytes) }
        let kindByte = bytes[0]
        let codecByte = bytes[1]
        guard let kind = Kind(rawValue: kindByte) else { throw .unknownKind(kindByte) }
        guard let codec = Codec(kind: kind, wireValue: codecByte) else { throw .unknownCodec(codecByte, kind: kind) }
        guard count > headerBytes || kind == .uploadFiller else { throw .emptyPayload(kind: kind) }
        let sequence = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 2, as: UInt32.self))
        let captureTime = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 6, as: UInt64.self))
        return MediaFrame(codec: codec, sequence: sequence, captureTime: captureTime,
                          payloadRange: headerBytes..<count)
    }

    /// The payload inside `bytes`, the buffer this frame was parsed from (clamped to it, so never out of bounds).
    package func payload(in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[payloadRange.clamped(to: 0..<bytes.count)])
    }
}
