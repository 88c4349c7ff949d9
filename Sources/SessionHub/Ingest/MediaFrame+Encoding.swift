import NIOCore

// Writing binary media frames: for tests, benchmarks and pong-player-sim. The encoder does not enforce
// `MediaFrame.maxBytes`, so tests can build oversized frames on purpose.

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

    /// Writes a complete frame (header, then `payload`) at `buffer`'s writer index; returns the bytes written.
    @discardableResult
    package static func write(codec: Codec, sequence: UInt32, captureTime: UInt64,
                              payload: some Collection<UInt8>, into buffer: inout ByteBuffer) -> Int {
        buffer.reserveCapacity(minimumWritableBytes: headerBytes + payload.count)
        var written = buffer.writeInteger(codec.kind.rawValue)
        written += buffer.writeInteger(codec.wireValue)
        written += buffer.writeInteger(sequence, endianness: .big)
        written += buffer.writeInteger(captureTime, endianness: .big)
        written += buffer.writeBytes(payload)
        return written
    }
}
