/// The packets of the first logical stream of an Ogg file (RFC 3533), joined across pages.
///
/// BounceDetector's demuxer is internal to that module; the simulator needs only the raw packets (it sends them as
/// they are), so this reader checks the page structure and skips the CRC (the decoder side checks files).
enum OggPacketReader {
    /// Every packet of the first logical stream, in order.
    static func packets(in bytes: [UInt8]) throws(SimError) -> [[UInt8]] {
        var packets: [[UInt8]] = []
        var pending: [UInt8] = []
        var serial: UInt32?
        var offset = 0
        while offset < bytes.count {
            guard offset + 27 <= bytes.count, bytes[offset..<offset + 4].elementsEqual("OggS".utf8) else {
                throw .badAudio("Ogg: no page at offset \(offset)")
            }
            let pageSerial = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + 14 + $1]) << (8 * $1) }
            let segmentCount = Int(bytes[offset + 26])
            let tableStart = offset + 27
            guard tableStart + segmentCount <= bytes.count else { throw .badAudio("Ogg: truncated segment table") }
            var cursor = tableStart + segmentCount
            if serial == nil { serial = pageSerial }
            let mine = pageSerial == serial
            for lace in bytes[tableStart..<tableStart + segmentCount] {
                let length = Int(lace)
                guard cursor + length <= bytes.count else { throw .badAudio("Ogg: truncated page body") }
                if mine {
                    pending.append(contentsOf: bytes[cursor..<cursor + length])
                    if length < 255 {
                        packets.append(pending)
                        pending.removeAll(keepingCapacity: true)
                    }
                }
                cursor += length
            }
            offset = cursor
        }
        return packets
    }
}
