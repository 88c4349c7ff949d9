/// Builds WAV files byte by byte for reader tests.
struct WAVBuilder {
    enum Sample { case int16, int24, int32, float32, int8 }

    var rate = 48000
    var channels = 1
    var sample = Sample.int16
    var extensible = false
    /// Extra chunks placed between fmt and data.
    var extraChunks: [(String, [UInt8])] = []

    /// A complete file holding `samples` (interleaved, in [-1, 1]).
    func build(_ samples: [Float]) -> [UInt8] {
        let (tag, bits): (UInt16, Int) = switch sample {
        case .int8: (1, 8)
        case .int16: (1, 16)
        case .int24: (1, 24)
        case .int32: (1, 32)
        case .float32: (3, 32)
        }
        var data: [UInt8] = []
        for x in samples {
            switch sample {
            case .int8: data.append(UInt8(Int(x * 127) + 128))
            case .int16: data += le(UInt16(bitPattern: Int16(clamping: Int((x * 32767).rounded()))))
            case .int24:
                let v = Int32((x * 8_388_607).rounded())
                data += [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v >> 16)]
            case .int32: data += le(UInt32(bitPattern: Int32(clamping: Int64((Double(x) * 2_147_483_647).rounded()))))
            case .float32: data += le(x.bitPattern)
            }
        }
        let blockAlign = UInt16(channels * bits / 8)
        var fmt = le(extensible ? UInt16(0xFFFE) : tag) + le(UInt16(channels)) + le(UInt32(rate))
        fmt += le(UInt32(rate) * UInt32(blockAlign)) + le(blockAlign) + le(UInt16(bits))
        if extensible {
            fmt += le(UInt16(22)) + le(UInt16(bits)) + le(UInt32(channels == 2 ? 3 : 4)) + le(tag)
            fmt += [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        }
        var body = Array("WAVE".utf8) + chunk("fmt ", fmt)
        for (id, payload) in extraChunks { body += chunk(id, payload) }
        body += chunk("data", data)
        return Array("RIFF".utf8) + le(UInt32(body.count)) + body
    }

    private func chunk(_ id: String, _ payload: [UInt8]) -> [UInt8] {
        Array(id.utf8) + le(UInt32(payload.count)) + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    private func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian, Array.init)
    }
}
