/// The Ogg page checksum: CRC-32 with polynomial 0x04C11DB7, no reflection, initial value 0 (RFC 3533).
enum OggCRC {
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index) << 24
        for _ in 0..<8 {
            crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1
        }
        return crc
    }

    /// The checksum of `bytes`, with the 4 bytes at `zeroing` (the page's own CRC field) read as 0.
    /// `bytes` is a slice of the whole file (an `ArraySlice` or a slice of its raw buffer), indexed like the file.
    static func checksum<Bytes: Collection<UInt8>>(_ bytes: Bytes, zeroing crcField: Range<Int>) -> UInt32
    where Bytes.Index == Int {
        var crc: UInt32 = 0
        for index in bytes.indices {
            let byte = crcField.contains(index) ? 0 : bytes[index]
            crc = (crc << 8) ^ table[Int(((crc >> 24) ^ UInt32(byte)) & 0xFF)]
        }
        return crc
    }
}
