import NIOCore
import PongWire

// Writing binary media frames straight into NIO's buffer (the parsing side is the server's, in SessionHub).

extension MediaFrame {
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
