/// Checks a JPEG's marker structure from SOI to EOI and keeps only what draws it (pure).
///
/// Walks every segment: `SOI`, then marker segments with valid lengths, one baseline, extended or progressive
/// Huffman frame header (`SOF0`–`SOF2`) with a non-zero size (the caller checks it against `ImageLimits`) and 1, 3
/// or 4 components, scans (`SOS`
/// with entropy-coded data up to the next marker, restart markers inside) and `EOI`; bytes after `EOI` are dropped.
/// Kept: `DQT`, `DHT`, `DRI`, `SOF`, `SOS` with their data, `APP0` only if it is JFIF and `APP14` only if it is
/// Adobe's (it says how colours are stored); every other `APPn` (EXIF with GPS, XMP, ICC …) and `COM` is dropped.
/// Anything else (arithmetic coding, lossless, hierarchical, `DNL`, reserved markers) is refused. The pixels are
/// checked by decoding (`ImageDecoder`).
enum JPEGSanitizer {
    /// The first bytes of every JPEG: SOI and the next marker's 0xFF.
    static let magic: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// The JPEG without metadata, and its header; nil for anything malformed. A frame header over `ImageLimits` is
    /// returned at once with no bytes (the rest is not read).
    static func sanitize(_ bytes: [UInt8]) -> (bytes: [UInt8], header: ImageHeader)? {
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        var output: [UInt8] = [0xFF, 0xD8]
        output.reserveCapacity(bytes.count)
        var offset = 2
        var header: ImageHeader?
        var sawScan = false
        while offset + 1 < bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            var marker = bytes[offset + 1]
            while marker == 0xFF, offset + 2 < bytes.count {  // fill bytes
                offset += 1
                marker = bytes[offset + 1]
            }
            offset += 2
            if marker == 0xD9 {  // EOI
                guard let header, sawScan else { return nil }
                return (output + [0xFF, 0xD9], header)
            }
            guard offset + 2 <= bytes.count else { return nil }
            let length = ByteReader.uint16(bytes, at: offset)
            guard length >= 2, offset + length <= bytes.count else { return nil }
            let segment = bytes[(offset - 2)..<(offset + length)]
            let payload = bytes[(offset + 2)..<(offset + length)]
            offset += length
            switch marker {
            case 0xC0, 0xC1, 0xC2:
                guard header == nil, let parsed = frameHeader(payload) else { return nil }
                guard parsed.isWithinLimits else { return ([], parsed) }  // refused by the caller, unread
                header = parsed
                output += segment
            case 0xC4, 0xDB, 0xDD:
                output += segment
            case 0xDA:
                guard header != nil else { return nil }
                output += segment
                guard let scanEnd = entropyEnd(bytes, from: offset) else { return nil }
                output += bytes[offset..<scanEnd]
                offset = scanEnd
                sawScan = true
            case 0xE0:
                if payload.starts(with: Array("JFIF\0".utf8)) { output += segment }
            case 0xEE:
                if payload.starts(with: Array("Adobe".utf8)) { output += segment }
            case 0xE1...0xEF, 0xFE:
                break  // APPn metadata and comments: dropped
            default:
                return nil
            }
        }
        return nil
    }

    /// Size and components of a frame header; nil for a zero size (a zero height needs DNL), other precisions or
    /// component counts.
    private static func frameHeader(_ payload: ArraySlice<UInt8>) -> ImageHeader? {
        let data = Array(payload)
        guard data.count >= 6, data[0] == 8 else { return nil }
        let height = ByteReader.uint16(data, at: 1)
        let width = ByteReader.uint16(data, at: 3)
        let components = Int(data[5])
        guard [1, 3, 4].contains(components), data.count == 6 + 3 * components else { return nil }
        guard width > 0, height > 0 else { return nil }
        return ImageHeader(width: width, height: height, bytesPerPixel: components)
    }

    /// Where a scan's entropy-coded data ends: the first marker that is neither a stuffed 0xFF00 nor a restart
    /// marker (RST0–RST7); nil if the data runs off the end.
    private static func entropyEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == 0xFF {
                let next = bytes[index + 1]
                if next == 0x00 || (0xD0...0xD7).contains(next) || next == 0xFF {
                    index += next == 0xFF ? 1 : 2
                    continue
                }
                return index
            }
            index += 1
        }
        return nil
    }
}
