/// Samples at 48 kHz in one Opus packet, from its TOC byte (RFC 6716 §3.1), as `opus_packet_get_nb_samples` does.
enum OpusPacketDuration {
    /// Samples per channel at 48 kHz, or nil for an empty or malformed packet.
    static func samples(_ packet: [UInt8]) -> Int? {
        guard let toc = packet.first else { return nil }
        let config = Int(toc >> 3)
        let frameSamples: Int
        switch config {
        case 0...11:  // SILK: 10, 20, 40, 60 ms
            frameSamples = [480, 960, 1920, 2880][config % 4]
        case 12...15:  // Hybrid: 10, 20 ms
            frameSamples = [480, 960][config % 2]
        default:  // CELT: 2.5, 5, 10, 20 ms
            frameSamples = [120, 240, 480, 960][config % 4]
        }
        let frames: Int
        switch toc & 0x03 {
        case 0: frames = 1
        case 1, 2: frames = 2
        default:
            guard packet.count >= 2 else { return nil }
            frames = Int(packet[1] & 0x3F)
        }
        let total = frames * frameSamples
        return total > 0 && total <= 5760 ? total : nil
    }
}
