/// Writes Opus packets into an Ogg Opus file (RFC 7845): OpusHead, OpusTags, then one packet per page.
///
/// Used to make test inputs and recordings; the reader is `OggOpusFile`.
package struct OggOpusWriter {
    private(set) package var bytes: [UInt8] = []
    private let serial: UInt32
    private var sequence: UInt32 = 0
    private var granule: Int64
    private let preSkip: Int

    /// Starts a stream with its two header pages.
    package init(channels: Int, preSkip: Int, serial: UInt32 = 0x504F_4E47) {
        self.serial = serial
        self.preSkip = preSkip
        self.granule = 0
        appendPage(OpusHead(channels: channels, preSkip: preSkip).bytes, granule: 0, flags: 0x02)
        var tags = Array("OpusTags".utf8)
        let vendor = Array("pongd".utf8)
        tags += withUnsafeBytes(of: UInt32(vendor.count).littleEndian, Array.init) + vendor
        tags += withUnsafeBytes(of: UInt32(0).littleEndian, Array.init)
        appendPage(tags, granule: 0, flags: 0)
    }

    /// Appends one packet of `frames` samples at 48 kHz; `last` sets end-of-stream and, with `totalFrames`,
    /// the final granule position that cuts encoder padding off the end.
    package mutating func append(packet: [UInt8], frames: Int, last: Bool = false, totalFrames: Int? = nil) {
        granule += Int64(frames)
        let position = last ? Int64(totalFrames.map { $0 + preSkip } ?? Int(granule)) : granule
        appendPage(packet, granule: position, flags: last ? 0x04 : 0)
    }

    private mutating func appendPage(_ packet: [UInt8], granule: Int64, flags: UInt8) {
        let start = bytes.count
        bytes += Array("OggS".utf8)
        bytes.append(0)
        bytes.append(flags)
        bytes += withUnsafeBytes(of: granule.littleEndian, Array.init)
        bytes += withUnsafeBytes(of: serial.littleEndian, Array.init)
        bytes += withUnsafeBytes(of: sequence.littleEndian, Array.init)
        bytes += [0, 0, 0, 0]
        var lacing = [UInt8](repeating: 255, count: packet.count / 255)
        lacing.append(UInt8(packet.count % 255))
        bytes.append(UInt8(lacing.count))
        bytes += lacing
        bytes += packet
        let crc = OggCRC.checksum(bytes[start...], zeroing: (start + 22)..<(start + 26))
        withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange((start + 22)..<(start + 26), with: $0) }
        sequence += 1
    }
}
