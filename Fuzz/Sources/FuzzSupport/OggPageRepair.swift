/// Rewrites the checksum of every complete Ogg page it can walk, so that a mutated input reaches the packet and
/// Opus parsing behind the CRC check instead of stopping at it (a mutation almost never keeps a CRC-32 valid).
public enum OggPageRepair {
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index) << 24
        for _ in 0..<8 {
            crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1
        }
        return crc
    }

    /// `bytes` with each page's CRC field (bytes 22..<26) set to its checksum, walking pages from the start while
    /// each begins with `OggS` and is complete; nil when no page was changed.
    public static func repaired(_ bytes: [UInt8]) -> [UInt8]? {
        var out = bytes
        var offset = 0
        var changed = false
        while offset + 27 <= out.count, out[offset..<offset + 4].elementsEqual("OggS".utf8) {
            let segments = Int(out[offset + 26])
            guard offset + 27 + segments <= out.count else { break }
            let body = out[(offset + 27)..<(offset + 27 + segments)].reduce(0) { $0 + Int($1) }
            let end = offset + 27 + segments + body
            guard end <= out.count else { break }
            var crc: UInt32 = 0
            for index in offset..<end {
                let byte = (offset + 22..<offset + 26).contains(index) ? 0 : out[index]
                crc = (crc << 8) ^ table[Int(((crc >> 24) ^ UInt32(byte)) & 0xFF)]
            }
            for shift in 0..<4 {
                let byte = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(shift)))
                if out[offset + 22 + shift] != byte {
                    out[offset + 22 + shift] = byte
                    changed = true
                }
            }
            offset = end
        }
        return changed ? out : nil
    }
}
