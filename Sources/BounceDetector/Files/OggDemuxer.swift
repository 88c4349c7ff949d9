/// One packet of a logical Ogg stream, located in the file's bytes.
package struct OggPacket: Equatable {
    /// Where the packet's bytes are, in order (a packet may span pages).
    var segments: [Range<Int>]
    /// Granule position of the page on which the packet ends, or -1 if that page has none.
    var granulePosition: Int64
    /// Whether this packet ends the stream (its page carries the end-of-stream flag and it is the last on it).
    var isLast: Bool

    /// The packet's length in bytes.
    package var count: Int { segments.reduce(0) { $0 + $1.count } }

    /// The packet's bytes, joined.
    package func bytes(in file: [UInt8]) -> [UInt8] {
        file.withUnsafeBytes { raw in bytes(in: raw) }
    }

    /// The packet's bytes, joined, copied out of the file's buffer.
    func bytes(in file: UnsafeRawBufferPointer) -> [UInt8] {
        segments.count == 1 ? Array(file[segments[0]]) : segments.flatMap { file[$0] }
    }

    /// The packet's first `maxLength` bytes (all of them if it is shorter).
    func prefix(_ maxLength: Int, in file: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        for segment in segments where out.count < maxLength {
            out += file[segment].prefix(maxLength - out.count)
        }
        return out
    }
}

/// Splits an Ogg file (RFC 3533) into the packets of its first logical stream, checking every page's
/// capture pattern, version and CRC.
package enum OggDemuxer {
    private static let headerSize = 27

    /// Packets of the first logical stream, in order.
    package static func packets(in bytes: [UInt8]) throws(AudioError) -> [OggPacket] {
        try packets(in: FileBytes(bytes))
    }

    /// Packets of the first logical stream of the file's bytes in place (an array or a mapping), in order.
    static func packets(in file: FileBytes) throws(AudioError) -> [OggPacket] {
        var pages = PageReleaser(file)
        return try file.withUnsafeBytes { raw throws(AudioError) in try packets(inBuffer: raw, releasing: &pages) }
    }

    private static func packets(
        inBuffer bytes: UnsafeRawBufferPointer, releasing pages: inout PageReleaser
    ) throws(AudioError) -> [OggPacket] {
        var packets: [OggPacket] = []
        var pending: [Range<Int>] = []
        var serial: UInt32?
        var offset = 0
        var pageIndex = 0
        while offset < bytes.count {
            var reader = ByteReader(bytes, offset: offset, context: "Ogg")
            try reader.require(headerSize, for: "page \(pageIndex) header")
            guard try reader.ascii(4, "capture pattern") == "OggS" else {
                throw .corrupt("Ogg: page \(pageIndex) at offset \(offset) lacks the OggS capture pattern")
            }
            let version = try reader.u8("version")
            guard version == 0 else { throw .unsupported("Ogg: page version \(version) is not 0") }
            let flags = try reader.u8("header type")
            let granule = Int64(bitPattern: try reader.u64le("granule position"))
            let pageSerial = try reader.u32le("serial number")
            _ = try reader.u32le("page sequence")
            let storedCRC = try reader.u32le("checksum")
            let segmentCount = Int(try reader.u8("segment count"))
            try reader.require(segmentCount, for: "segment table of page \(pageIndex)")
            let lacing = bytes[reader.offset..<reader.offset + segmentCount]
            try reader.skip(segmentCount, for: "segment table")
            let bodySize = lacing.reduce(0) { $0 + Int($1) }
            try reader.require(bodySize, for: "body of page \(pageIndex)")
            let pageEnd = reader.offset + bodySize
            let crc = OggCRC.checksum(bytes[offset..<pageEnd], zeroing: (offset + 22)..<(offset + 26))
            guard crc == storedCRC else {
                throw .corrupt("Ogg: page \(pageIndex) at offset \(offset) fails its CRC check")
            }

            if serial == nil { serial = pageSerial }
            if pageSerial == serial {
                let continued = flags & 0x01 != 0
                if !continued && !pending.isEmpty {
                    throw .corrupt("Ogg: page \(pageIndex) starts a new packet while one is unfinished")
                }
                if continued && pending.isEmpty {
                    throw .corrupt("Ogg: page \(pageIndex) continues a packet that never started")
                }
                var position = reader.offset
                var segmentStart = position
                var endedHere: [Int] = []
                for (index, value) in lacing.enumerated() {
                    position += Int(value)
                    if value < 255 {
                        pending.append(segmentStart..<position)
                        packets.append(OggPacket(segments: Self.merge(pending), granulePosition: -1, isLast: false))
                        endedHere.append(packets.count - 1)
                        pending = []
                        segmentStart = position
                    } else if index == lacing.count - 1 {
                        pending.append(segmentStart..<position)
                    }
                }
                if let last = endedHere.last {
                    packets[last].granulePosition = granule
                    packets[last].isLast = flags & 0x04 != 0
                }
            }
            offset = pageEnd
            pageIndex += 1
            pages.passed(offset)
        }
        if !pending.isEmpty { throw .truncated("Ogg: the file ends inside a packet") }
        return packets
    }

    private static func merge(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for range in ranges {
            if let last = merged.last, last.upperBound == range.lowerBound {
                merged[merged.count - 1] = last.lowerBound..<range.upperBound
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
