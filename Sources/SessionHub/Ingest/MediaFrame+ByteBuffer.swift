import NIOCore
import PongWire

// Parsing a WebSocket binary message straight from NIO's buffer, without copying it.

extension MediaFrame {
    /// Reads the header of the frame that fills `buffer`'s readable bytes (the reader index is not moved).
    ///
    /// `payloadRange` is relative to `buffer.readerIndex`; take the payload with `payload(in:)`.
    /// - Throws: `frame_too_short`, `frame_too_large`, `unknown_frame_kind`, `unknown_codec`, `empty_payload`.
    package static func parse(_ buffer: ByteBuffer) throws(MediaFrameError) -> MediaFrame {
        let result = buffer.withUnsafeReadableBytes { bytes in
            Result { () throws(MediaFrameError) -> MediaFrame in try parse(bytes) }
        }
        return try result.get()
    }

    /// The payload as a slice of `buffer`, the buffer this frame was parsed from (shares its storage, copies
    /// nothing); nil when `buffer` is too short to hold it.
    package func payload(in buffer: ByteBuffer) -> ByteBuffer? {
        buffer.getSlice(at: buffer.readerIndex + payloadRange.lowerBound, length: payloadRange.count)
    }
}
