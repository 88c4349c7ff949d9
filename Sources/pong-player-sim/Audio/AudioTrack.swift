import BounceDetector
import Foundation

/// The Opus packets every phone streams, prepared once and shared: one loop of the audio file.
///
/// Stream time (the server's `bounce.streamTime`) is decoded samples less `preSkip`, so the file's sample `t` of
/// loop `k` is heard at stream sample `k * loopSamples + t` (see `docs/SIMULATOR.md`).
struct AudioTrack: Sendable {
    /// One packet and where it starts in the loop.
    struct Packet: Sendable, Hashable {
        /// The Opus packet.
        var bytes: [UInt8]
        /// Its first sample's position in the loop (samples at 48 kHz, counting the encoder delay).
        var start: Int
        /// Samples it holds at 48 kHz.
        var samples: Int
    }

    /// Packets of one loop, in order.
    var packets: [Packet]
    /// Samples of one loop at 48 kHz (the sum of the packets' samples).
    var loopSamples: Int
    /// Encoder delay at 48 kHz, sent as `preSkip` in `POST /streams/start`.
    var preSkip: Int
    /// 1 or 2.
    var channels: Int

    /// Sample rate of stream time.
    static let sampleRate = 48000
    /// Samples of one 20 ms packet.
    static let packetSamples = 960

    /// Loop length in seconds.
    var loopSeconds: Double { Double(loopSamples) / Double(Self.sampleRate) }

    /// A track from prepared packets (tests).
    init(packets: [Packet], preSkip: Int, channels: Int) {
        self.packets = packets
        self.loopSamples = packets.reduce(0) { $0 + $1.samples }
        self.preSkip = preSkip
        self.channels = channels
    }

    /// Loads `path`: a `.wav` (48 kHz, mono or stereo) is encoded to 20 ms Opus packets at `bitrate`; an `.opus`
    /// (Ogg Opus) file's packets are taken as they are with its OpusHead's pre-skip.
    static func load(path: String, bitrate: Int) throws(SimError) -> AudioTrack {
        let bytes = try readFile(path)
        if path.lowercased().hasSuffix(".opus") || bytes.starts(with: Array("OggS".utf8)) {
            return try fromOggOpus(bytes)
        }
        return try fromWAV(bytes, bitrate: bitrate)
    }

    /// Encodes WAV PCM; the input is padded with silence to cover the encoder delay and a whole last packet.
    static func fromWAV(_ bytes: [UInt8], bitrate: Int) throws(SimError) -> AudioTrack {
        do {
            var wav = try WAVFile(bytes: bytes)
            guard wav.format.sampleRate == sampleRate else {
                throw SimError.badAudio("WAV must be 48 kHz (it is \(wav.format.sampleRate) Hz)")
            }
            let channels = wav.format.channels
            var pcm = try wav.readAll().samples
            let encoder = try OpusPacketEncoder(sampleRate: sampleRate, channels: channels, bitrate: bitrate)
            let frames = pcm.count / channels + encoder.lookahead
            let packetCount = (frames + packetSamples - 1) / packetSamples
            pcm += [Float](repeating: 0, count: packetCount * packetSamples * channels - pcm.count)
            var packets: [Packet] = []
            packets.reserveCapacity(packetCount)
            for index in 0..<packetCount {
                let range = (index * packetSamples * channels)..<((index + 1) * packetSamples * channels)
                let packet = try pcm[range].withUnsafeBufferPointer { try encoder.encode($0) }
                packets.append(Packet(bytes: packet, start: index * packetSamples, samples: packetSamples))
            }
            return AudioTrack(packets: packets, preSkip: encoder.lookahead, channels: channels)
        } catch let error as SimError {
            throw error
        } catch {
            throw .badAudio("WAV: \(error)")
        }
    }

    /// Takes an Ogg Opus file's audio packets as they are.
    static func fromOggOpus(_ bytes: [UInt8]) throws(SimError) -> AudioTrack {
        // BounceDetector's demuxer (page CRCs checked) and OpusHead parser.
        let all: [OggPacket]
        do {
            all = try OggDemuxer.packets(in: bytes)
        } catch {
            throw .badAudio("Ogg Opus: \(error)")
        }
        guard all.count > 2, let first = all.first else {
            throw .badAudio("Ogg Opus: no OpusHead, or no audio packets")
        }
        let head: OpusHead
        do {
            head = try OpusHead(parsing: first.bytes(in: bytes))
        } catch {
            throw .badAudio("Ogg Opus: \(error)")
        }
        let (channels, preSkip) = (head.channels, head.preSkip)
        var packets: [Packet] = []
        var start = 0
        for packet in all.dropFirst(2) where packet.count > 0 {
            let bytes = packet.bytes(in: bytes)
            guard let samples = OpusPacketDuration.samples(bytes) else {
                throw .badAudio("Ogg Opus: packet \(packets.count) has an invalid TOC")
            }
            packets.append(Packet(bytes: bytes, start: start, samples: samples))
            start += samples
        }
        guard !packets.isEmpty, (1...2).contains(channels) else { throw .badAudio("Ogg Opus: nothing to stream") }
        return AudioTrack(packets: packets, preSkip: preSkip, channels: channels)
    }
}

/// The whole file at `path`.
func readFile(_ path: String) throws(SimError) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else { throw .badArgument("cannot read \(path)") }
    return [UInt8](data)
}
