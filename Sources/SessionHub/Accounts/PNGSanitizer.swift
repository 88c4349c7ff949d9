/// Checks a PNG's structure and keeps only what draws it (pure).
///
/// Every chunk's length and CRC are checked; `IHDR` comes first with a non-zero size and a valid bit depth and
/// colour type (the caller checks the size against `ImageLimits`), `IDAT` chunks are consecutive, `IEND` ends the
/// file (bytes after it are dropped). Kept: `IHDR`, `PLTE`, `tRNS`, `IDAT`, `IEND`; every other ancillary chunk
/// (text, EXIF, time, ICC profiles, APNG frames …) is dropped; an unknown critical chunk is refused. The pixels are checked by decoding (`ImageDecoder`).
enum PNGSanitizer {
    /// The eight signature bytes.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let kept: Set<String> = ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"]

    /// The PNG without metadata, and its header; nil for anything malformed. A header over `ImageLimits` is
    /// returned at once with no bytes (the rest is not read).
    static func sanitize(_ bytes: [UInt8]) -> (bytes: [UInt8], header: ImageHeader)? {
        guard bytes.starts(with: signature) else { return nil }
        var output = signature
        var offset = signature.count
        var header: ImageHeader?
        var sawIDAT = false
        var idatEnded = false
        while offset + 12 <= bytes.count {
            let length = Int(ByteReader.uint32(bytes, at: offset))
            guard length <= bytes.count - offset - 12 else { return nil }
            let typeBytes = Array(bytes[(offset + 4)..<(offset + 8)])
            guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else { return nil }
            let type = String(decoding: typeBytes, as: UTF8.self)
            let end = offset + 8 + length
            guard CRC32.checksum(bytes[(offset + 4)..<end]) == ByteReader.uint32(bytes, at: end) else { return nil }
            let data = bytes[(offset + 8)..<end]
            if header == nil {
                guard type == "IHDR", let parsed = parseHeader(data) else { return nil }
                guard parsed.isWithinLimits else { return ([], parsed) }  // refused by the caller, unread
                header = parsed
            } else if type == "IHDR" {
                return nil
            }
            if type == "IDAT" {
                guard !idatEnded else { return nil }
                sawIDAT = true
            } else if sawIDAT {
                idatEnded = true
            }
            let critical = typeBytes[0] & 0x20 == 0
            if kept.contains(type) {
                output += bytes[offset..<(end + 4)]
            } else if critical {
                return nil
            }
            offset = end + 4
            if type == "IEND" {
                guard let header, sawIDAT, length == 0 else { return nil }
                return (output, header)
            }
        }
        return nil
    }

    /// Width, height and decoded size from an `IHDR`'s 13 bytes; nil for invalid values.
    private static func parseHeader(_ data: ArraySlice<UInt8>) -> ImageHeader? {
        guard data.count == 13 else { return nil }
        let start = data.startIndex
        let width = Int(ByteReader.uint32(Array(data), at: 0))
        let height = Int(ByteReader.uint32(Array(data), at: 4))
        let depth = Int(data[start + 8])
        let colorType = data[start + 9]
        let channels: Int
        switch (colorType, depth) {
        case (0, 1), (0, 2), (0, 4), (0, 8), (0, 16): channels = 1
        case (2, 8), (2, 16): channels = 3
        case (3, 1), (3, 2), (3, 4), (3, 8): channels = 1
        case (4, 8), (4, 16): channels = 2
        case (6, 8), (6, 16): channels = 4
        default: return nil
        }
        guard data[start + 10] == 0, data[start + 11] == 0, data[start + 12] <= 1 else { return nil }
        guard width > 0, height > 0 else { return nil }
        return ImageHeader(width: width, height: height, bytesPerPixel: max(1, channels * depth / 8))
    }
}

/// What a photo's header says: its size and how many bytes a decoded pixel takes.
struct ImageHeader: Hashable, Sendable {
    /// Pixels across.
    var width: Int
    /// Pixels down.
    var height: Int
    /// Bytes per decoded pixel (at least 1).
    var bytesPerPixel: Int

    /// Bytes of the decoded picture.
    var decodedBytes: Int { width * height * bytesPerPixel }

    /// True when both sides are 1…`ImageLimits.maxSide` and the decoded picture fits `ImageLimits.maxDecodedBytes`.
    var isWithinLimits: Bool {
        (1...ImageLimits.maxSide).contains(width) && (1...ImageLimits.maxSide).contains(height)
            && decodedBytes <= ImageLimits.maxDecodedBytes
    }
}

/// The limits every profile photo is held to (docs/SECURITY-accounts.md, "Photos").
package enum ImageLimits {
    /// Most pixels on either side.
    package static let maxSide = 4096
    /// Most bytes of the decoded picture (4096 × 4096 at 4 bytes a pixel).
    package static let maxDecodedBytes = 64 * 1024 * 1024
}

/// Big-endian reads.
enum ByteReader {
    /// The big-endian `UInt32` at `offset` of `bytes` (the caller checks the bounds).
    static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    /// The big-endian `UInt16` at `offset` of `bytes` (the caller checks the bounds).
    static func uint16(_ bytes: [UInt8], at offset: Int) -> Int {
        Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }
}

/// CRC-32 (ISO-HDLC, as PNG chunks use it).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The CRC of `bytes`.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
