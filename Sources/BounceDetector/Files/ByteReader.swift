/// A cursor over little- or big-endian binary data that throws `truncated` instead of reading past the end.
///
/// It reads the bytes in place: use it only while `bytes` is valid (inside `FileBytes.withUnsafeBytes`).
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    /// Offset of the next unread byte.
    private(set) var offset: Int
    /// Names the format in error messages ("WAV", "Ogg").
    let context: String

    init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0, context: String) {
        self.bytes = bytes
        self.offset = offset
        self.context = context
    }

    /// Bytes not yet read.
    var remaining: Int { bytes.count - offset }

    /// Throws `truncated` unless `count` more bytes are available.
    func require(_ count: Int, for what: String) throws(AudioError) {
        guard count >= 0, remaining >= count else {
            throw .truncated("\(context): \(what) needs \(count) bytes at offset \(offset), only \(max(remaining, 0)) remain")
        }
    }

    mutating func skip(_ count: Int, for what: String) throws(AudioError) {
        try require(count, for: what)
        offset += count
    }

    mutating func u8(_ what: String) throws(AudioError) -> UInt8 {
        try require(1, for: what)
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16le(_ what: String) throws(AudioError) -> UInt16 {
        UInt16(truncatingIfNeeded: try unsignedLE(2, what))
    }

    mutating func u32le(_ what: String) throws(AudioError) -> UInt32 {
        UInt32(truncatingIfNeeded: try unsignedLE(4, what))
    }

    mutating func u64le(_ what: String) throws(AudioError) -> UInt64 {
        try unsignedLE(8, what)
    }

    mutating func ascii(_ count: Int, _ what: String) throws(AudioError) -> String {
        try require(count, for: what)
        defer { offset += count }
        return String(decoding: bytes[offset..<offset + count], as: Unicode.ASCII.self)
    }

    private mutating func unsignedLE(_ width: Int, _ what: String) throws(AudioError) -> UInt64 {
        try require(width, for: what)
        var value: UInt64 = 0
        for index in 0..<width {
            value |= UInt64(bytes[offset + index]) << (8 * UInt64(index))
        }
        offset += width
        return value
    }
}
