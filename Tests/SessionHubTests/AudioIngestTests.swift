import Foundation
import BounceDetector
@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Ingest: audio → decoder → detector → bounces")
struct AudioIngestTests {
    static let onsets = [0.8, 1.4, 1.44, 2.3]
    static let base: UInt64 = 7_000_000_000

    /// Feeds packets (index = sequence number and 20 ms capture slot unless `sequence`/`slot` say otherwise);
    /// returns the detections.
    private func run(_ ingest: AudioIngest, _ packets: [[UInt8]], skipping dropped: Set<Int> = [],
                     sequence: (Int) -> UInt32 = { UInt32($0) },
                     slot: (Int) -> Int = { $0 }) throws -> [AudioIngest.Detection] {
        var detections: [AudioIngest.Detection] = []
        for (index, packet) in packets.enumerated() where !dropped.contains(index) {
            _ = try packet.withUnsafeBytes { bytes in
                try ingest.ingest(bytes, codec: .opus, sequence: sequence(index),
                                  captureTime: Self.base + UInt64(slot(index)) * 20_000) { detections.append($0) }
            }
        }
        return detections
    }

    @Test("every impact, at its stream time (pre-skip removed) and capture time, within 1 ms")
    func timing() throws {
        let (packets, preSkip) = try ImpactAudio.opusPackets(ImpactAudio.scene(seconds: 3, onsets: Self.onsets))
        let ingest = try AudioIngest(codec: .opus, preSkip: preSkip)
        let detections = try run(ingest, packets)
        #expect(detections.count == Self.onsets.count)
        for (detection, onset) in zip(detections, Self.onsets) {
            #expect(abs(detection.streamTime - onset) < 0.001, "\(detection.streamTime) vs \(onset)")
            // Capture time: the phone's clock at the onset of the input (the decoder's pre-skip taken out).
            let expected = Double(Self.base) + onset * 1e6
            #expect(abs(Double(detection.captureTime) - expected) < 1000)
            #expect(detection.kind == .table)
            #expect(detection.confidence > 0 && detection.confidence <= 1)
        }
        #expect(abs(ingest.streamTime - (3 - Double(preSkip) / 48000)) < 0.001)
    }

    @Test("a lost packet is concealed: later impacts keep their stream time")
    func concealed() throws {
        let (packets, preSkip) = try ImpactAudio.opusPackets(ImpactAudio.scene(seconds: 3, onsets: Self.onsets))
        let ingest = try AudioIngest(codec: .opus, preSkip: preSkip)
        let detections = try run(ingest, packets, skipping: [30, 31])  // 0.60–0.64 s, before the first impact
        #expect(detections.map { ($0.streamTime * 1000).rounded() } == Self.onsets.map { ($0 * 1000).rounded() })
    }

    @Test("a gap too long to conceal is skipped in stream time; impacts after it are placed right")
    func skipped() throws {
        let (packets, preSkip) = try ImpactAudio.opusPackets(ImpactAudio.scene(seconds: 3, onsets: Self.onsets))
        let ingest = try AudioIngest(codec: .opus, preSkip: preSkip)
        let dropped = Set(5..<(6 + AudioIngest.maxConcealedPackets))  // 0.1–0.62 s
        let detections = try run(ingest, packets, skipping: dropped)
        #expect(detections.count == Self.onsets.count)
        for (detection, onset) in zip(detections, Self.onsets) {
            #expect(abs(detection.streamTime - onset) < 0.001, "\(detection.streamTime) vs \(onset)")
        }
    }

    @Test("a phone that skips 25 sequence numbers every packet gets at most one concealed packet per real one")
    func concealmentBudget() throws {
        let (packets, preSkip) = try ImpactAudio.opusPackets(ImpactAudio.scene(seconds: 1, onsets: []))
        let ingest = try AudioIngest(codec: .opus, preSkip: preSkip)
        let gap = AudioIngest.maxConcealedPackets
        _ = try run(ingest, packets, sequence: { UInt32($0 * (gap + 1)) })
        let lost = (packets.count - 1) * gap
        // The first gap is concealed whole; after it, one packet of budget per packet received.
        #expect(ingest.concealedPackets <= gap + packets.count)
        #expect(ingest.concealedPackets >= gap)
        // Stream time still counts every lost packet (concealed or skipped).
        let expected = Double((packets.count + lost) * 960 - preSkip) / 48000
        #expect(abs(ingest.streamTime - expected) < 0.001, "\(ingest.streamTime) vs \(expected)")
    }

    @Test("duplicates are dropped; a phone that restarts its counter goes on")
    func duplicatesAndRestarts() throws {
        let (packets, preSkip) = try ImpactAudio.opusPackets(ImpactAudio.scene(seconds: 3, onsets: Self.onsets))
        let ingest = try AudioIngest(codec: .opus, preSkip: preSkip)
        var doubled: [[UInt8]] = []
        for packet in packets.prefix(10) { doubled += [packet, packet] }
        var detections = try run(ingest, doubled, sequence: { UInt32($0 / 2) }, slot: { $0 / 2 })
        detections += try run(ingest, Array(packets.dropFirst(10)), sequence: { UInt32(100_000 + $0) },
                              slot: { $0 + 10 })
        #expect(detections.count == Self.onsets.count)
        #expect(abs((detections.first?.streamTime ?? 0) - Self.onsets[0]) < 0.001)
        // The caller learns which frames were taken: a duplicate counts for nothing.
        let taken = try packets[10].withUnsafeBytes { bytes in
            try ingest.ingest(bytes, codec: .opus, sequence: 100_005, captureTime: 0) { _ in }
        }
        #expect(!taken)
    }

    @Test("a frame of the other codec and an undecodable packet are errors; the stream goes on")
    func errors() throws {
        let (packets, preSkip) = try ImpactAudio.opusPackets(ImpactAudio.scene(seconds: 3, onsets: Self.onsets))
        let ingest = try AudioIngest(codec: .opus, preSkip: preSkip)
        let junk: [UInt8] = [0xff, 0x00]  // code 3 with no frames: libopus refuses it
        #expect(throws: IngestError.undecodable(.opus)) {
            try junk.withUnsafeBytes { try ingest.ingest($0, codec: .opus, sequence: 0, captureTime: 0) { _ in } }
        }
        #expect(throws: IngestError.codecMismatch(expected: .opus, got: .aac)) {
            try junk.withUnsafeBytes { try ingest.ingest($0, codec: .aac, sequence: 0, captureTime: 0) { _ in } }
        }
        #expect(IngestError.undecodable(.opus).apiError.code == "undecodable_media")
        #expect(try run(ingest, packets, sequence: { UInt32($0 + 1) }).count == Self.onsets.count)
    }

    @Test("AAC: ADTS frames from a real encoder decode at the stream's rate, stream time follows, a steady tone is no bounce")
    func aacStream() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("BounceDetectorTests/Fixtures/tone1k-48k-mono.aac")
        let bytes = [UInt8](try Data(contentsOf: url))
        let frames = try ADTSHeader.frames(in: bytes)
        #expect(frames.count > 10)
        let ingest = try AudioIngest(codec: .aac)
        var detections: [AudioIngest.Detection] = []
        for (index, range) in frames.enumerated() {
            _ = try Array(bytes[range]).withUnsafeBytes { frame in
                try ingest.ingest(frame, codec: .aac, sequence: UInt32(index), captureTime: UInt64(index) * 21_333) {
                    detections.append($0)
                }
            }
        }
        #expect(detections.isEmpty)
        // 1024 frames of 48 kHz audio per ADTS frame (the decoder's priming included).
        #expect(abs(ingest.streamTime - Double(frames.count * 1024) / 48000) < 0.001)
    }

    @Test("AAC: garbage is undecodable; the detector starts at the stream's own rate")
    func aac() throws {
        let ingest = try AudioIngest(codec: .aac)
        let junk: [UInt8] = Array(repeating: 0x11, count: 40)
        #expect(throws: IngestError.undecodable(.aac)) {
            try junk.withUnsafeBytes { try ingest.ingest($0, codec: .aac, sequence: 0, captureTime: 0) { _ in } }
        }
        #expect(ingest.streamTime == 0)
    }
}
