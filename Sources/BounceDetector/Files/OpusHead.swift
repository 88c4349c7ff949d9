/// The identification header of an Ogg Opus stream (RFC 7845 §5.1).
package struct OpusHead: Equatable {
    package var channels: Int
    /// Samples at 48 kHz to drop from the start of the decoded stream.
    package var preSkip: Int
    /// The rate of the original input, informational only.
    var inputSampleRate: Int
    /// Gain to apply, in dB (Q7.8 on the wire).
    var outputGainDB: Double

    init(channels: Int, preSkip: Int, inputSampleRate: Int = 48000, outputGainDB: Double = 0) {
        self.channels = channels
        self.preSkip = preSkip
        self.inputSampleRate = inputSampleRate
        self.outputGainDB = outputGainDB
    }

    /// Parses and checks an OpusHead packet; throws `corrupt` or `unsupported` naming what is wrong.
    package init(parsing packet: [UInt8]) throws(AudioError) {
        self = try packet.withAudioBytes { raw throws(AudioError) in try OpusHead(parsing: raw) }
    }

    /// Parses the header packet's bytes in place.
    init(parsing packet: UnsafeRawBufferPointer) throws(AudioError) {
        var reader = ByteReader(packet, context: "Ogg Opus")
        guard (try? reader.ascii(8, "magic")) == "OpusHead" else {
            throw .corrupt("Ogg Opus: the first packet is not an OpusHead header (is this an Opus file?)")
        }
        let version = try reader.u8("version")
        guard version >> 4 == 0 else { throw .unsupported("Ogg Opus: header version \(version) is not supported") }
        channels = Int(try reader.u8("channel count"))
        preSkip = Int(try reader.u16le("pre-skip"))
        inputSampleRate = Int(try reader.u32le("input sample rate"))
        outputGainDB = Double(Int16(bitPattern: try reader.u16le("output gain"))) / 256
        let mapping = try reader.u8("channel mapping family")
        guard channels >= 1 else { throw .corrupt("Ogg Opus: OpusHead declares 0 channels") }
        guard mapping == 0, channels <= 2 else {
            throw .unsupported("Ogg Opus: \(channels) channels with mapping family \(mapping) (only mono and stereo are supported)")
        }
    }

    /// The 19-byte header as written into an Ogg stream.
    var bytes: [UInt8] {
        var out = Array("OpusHead".utf8)
        out.append(1)
        out.append(UInt8(channels))
        out += withUnsafeBytes(of: UInt16(preSkip).littleEndian, Array.init)
        out += withUnsafeBytes(of: UInt32(inputSampleRate).littleEndian, Array.init)
        out += withUnsafeBytes(of: Int16(outputGainDB * 256).littleEndian, Array.init)
        out.append(0)
        return out
    }
}
