import Testing
@testable import pong_player_sim

@Suite("BounceScorer")
struct BounceScorerTests {
    static let labels = Labels([.init(time: 1.0, type: "bounce"), .init(time: 2.0, type: "hit"),
                                .init(time: 3.5, type: "bounce")])
    static let scorer = BounceScorer(labels: labels, loopSeconds: 4.0)

    static func window(_ start: Double, _ end: Double) -> StreamWindows.Window { .init(start: start, end: end) }

    @Test("detections within ±10 ms match one label each; misses and extras count against F1")
    func matching() {
        let score = Self.scorer.score(detections: [1.009, 1.0, 2.02, 3.495], windows: [Self.window(0, 4)])
        // 1.0 and 1.009 compete for label 1.0: the nearer wins, the other is a false positive; 2.02 is too far.
        #expect(score.counts == [2, 2, 1])
        #expect(score.f1 == 4.0 / 7.0)
    }

    @Test("labels repeat every loop of the file")
    func loops() {
        let score = Self.scorer.score(detections: [1.0, 2.0, 3.5, 5.0, 6.001, 7.5], windows: [Self.window(0, 8)])
        #expect(score.counts == [6, 0, 0])
        #expect(score.f1 == 1)
    }

    @Test("labels in a gap (socket down) or outside the streamed time are not expected")
    func gaps() {
        // Streamed 0–1.5 s and 3–4.2 s: labels 1.0 and 3.5 expected; 2.0 fell in the gap, 5.0 after the end.
        let score = Self.scorer.score(detections: [1.0, 2.0, 3.5], windows: [Self.window(0, 1.5), Self.window(3, 4.2)])
        #expect(score.counts == [2, 0, 0])
    }

    @Test("a label within the edge margin of a window is not expected")
    func margins() {
        let score = Self.scorer.score(detections: [], windows: [Self.window(0.98, 1.5)])
        #expect(score.counts == [0, 0, 0])
        #expect(score.f1 == nil)
    }

    @Test("matches also check the kind: bounce → table, hit → racket")
    func kinds() {
        let detections: [BounceScorer.Detection] = [.init(time: 1.0, kind: "table"), .init(time: 2.0, kind: "table"),
                                                    .init(time: 3.5, kind: "unknown")]
        let score = Self.scorer.score(detections, windows: [Self.window(0, 4)])
        #expect(score.truePositives == 3)
        #expect(score.kindChecked == 3 && score.kindAgreements == 1)
    }

    @Test("scores add up over phones")
    func sums() {
        let a = BounceScorer.Score(truePositives: 1, falsePositives: 2, falseNegatives: 3)
        #expect(a + a == .init(truePositives: 2, falsePositives: 4, falseNegatives: 6, kindChecked: 0, kindAgreements: 0))
    }
}

@Suite("StreamWindows and LatencyRing")
struct StreamTrackingTests {
    @Test("consecutive packets extend a window; a skipped packet starts a new one")
    func windows() {
        var windows = StreamWindows()
        windows.sent(startSample: 0, samples: 960)
        windows.sent(startSample: 960, samples: 960)
        windows.sent(startSample: 4800, samples: 960)
        #expect(windows.windows == [.init(start: 0, end: 0.04), .init(start: 0.1, end: 0.12)])
        #expect(abs(windows.sentSeconds - 0.06) < 1e-12)
    }

    @Test("a bounce's captureTime maps to the packet holding it; latency counts from that packet's due instant")
    func ring() {
        var ring = LatencyRing(capacity: 2)
        ring.record(.init(captureStart: 1_000_000, captureEnd: 1_020_000, due: .seconds(1.02)))
        ring.record(.init(captureStart: 1_020_000, captureEnd: 1_040_000, due: .seconds(1.04)))
        let latency = ring.latency(captureTime: 1_025_000, arrival: .seconds(1.09))
        #expect(latency.map { abs($0 - 0.05) < 1e-9 } == true)
        #expect(ring.latency(captureTime: 1_040_000, arrival: .seconds(2)) == nil)
        ring.record(.init(captureStart: 1_040_000, captureEnd: 1_060_000, due: .seconds(1.06)))
        #expect(ring.packet(holding: 1_005_000) == nil, "the oldest entry was overwritten")
    }

    @Test("capture times are µs of the stream's samples at 48 kHz")
    func captureTimes() {
        #expect(AudioTrack.captureMicros(startMicros: 5_000_000, sample: 48000) == 6_000_000)
        #expect(AudioTrack.captureMicros(startMicros: 0, sample: 960) == 20_000)
    }

    @Test("packets are numbered across loops; stream samples continue from loop to loop")
    func loopedPackets() {
        let track = AudioTrack(packets: [.init(bytes: [0xFC], start: 0, samples: 960),
                                         .init(bytes: [0xFC], start: 960, samples: 960)],
                               preSkip: 312, channels: 1)
        #expect(track.loopSamples == 1920)
        #expect(track.packet(3).streamSample == 2880)
        #expect(track.packet(4).streamSample == 3840)
    }
}

extension BounceScorer.Score {
    /// TP, FP, FN.
    var counts: [Int] { [truePositives, falsePositives, falseNegatives] }
}

/// Bounces are placed in the phone's stream by their capture time, so a decoder restarted on another node (its
/// `streamTime` from 0 again) changes nothing.
struct CaptureTimePlacementTests {
    @Test("a capture time maps back to its stream sample, whatever the server's streamTime says")
    func placement() {
        let start: UInt64 = 5_000_000_123
        for sample in [0, 480, 48_000 * 37 + 17] {
            let capture = AudioTrack.captureMicros(startMicros: start, sample: sample)
            let seconds = AudioTrack.streamSeconds(captureMicros: Int64(capture), startMicros: start)
            #expect(abs(seconds - Double(sample) / 48_000) < 2e-6)
        }
    }
}
