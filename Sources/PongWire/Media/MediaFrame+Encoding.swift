// Writing binary media frames: for tests, benchmarks and clients (`PongClient` also writes them into NIO buffers).
// The encoder does not enforce `MediaFrame.maxBytes`, so tests can build oversized frames on purpose.

extension MediaFrame {
    /// A complete frame: the 14-byte header followed by `payload`.
    public static func encode(codec: Codec, sequence: UInt32, captureTime: UInt64,
                               payload: some Collection<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerBytes + payload.count)
        appendHeader(codec: codec, sequence: sequence, captureTime: captureTime, to: &bytes)
        bytes.append(contentsOf: payload)
        return bytes
    }

    /// Appends the 14-byte header of a frame to `bytes` (the payload goes right after it).
    package static func appendHeader(codec: Codec, sequence: UInt32, captureTime: UInt64, to bytes: inout [UInt8]) {
        bytes.append(codec.kind.rawValue)
        bytes.append(codec.wireValue)
        withUnsafeBytes(of: sequence.bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: captureTime.bigEndian) { bytes.append(contentsOf: $0) }
    }
}

extension MediaFrame {
    /// Reads the header of the frame in `bytes` (a copy-free view of the array; see `parse(_: UnsafeRawBufferPointer)`).
    ///
    /// - Throws: `frame_too_short`, `frame_too_large`, `unknown_frame_kind`, `unknown_codec`, `empty_payload`.
    public static func parse(_ bytes: [UInt8]) throws(MediaFrameError) -> MediaFrame {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(MediaFrameError) -> MediaFrame in try parse(raw) }
        }
        return try result.get()
    }

    /// The payload inside `bytes`, the array this frame was parsed from (clamped to it, so never out of bounds).
    public func payload(in bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes[payloadRange.clamped(to: 0..<bytes.count)]
    }
}
