import Testing
@testable import SessionHub

@Suite("Ingest: sequence numbers and the stream timeline")
struct IngestSequenceTests {
    @Test("first, next, a gap, a duplicate, a restarted counter")
    func steps() {
        var tracker = SequenceTracker(maxGap: 100, maxStaleness: 10)
        #expect(tracker.step(7) == .first)
        #expect(tracker.step(8) == .next)
        #expect(tracker.step(11) == .lost(count: 2))
        #expect(tracker.step(11) == .stale)
        #expect(tracker.step(5) == .stale)
        #expect(tracker.step(12) == .next)
        #expect(tracker.step(500) == .restarted)
        #expect(tracker.step(501) == .next)
        #expect(tracker.step(100) == .restarted)  // far behind: a new counter, not a duplicate
        #expect(tracker.step(101) == .next)
    }

    @Test("the counter wraps around without a gap")
    func wraps() {
        var tracker = SequenceTracker()
        #expect(tracker.step(UInt32.max - 1) == .first)
        #expect(tracker.step(UInt32.max) == .next)
        #expect(tracker.step(0) == .next)
        #expect(tracker.step(3) == .lost(count: 2))
        #expect(tracker.step(UInt32.max) == .stale)
    }

    @Test("stream time is less pre-skip; capture time is the input's: its packet's plus its offset, pre-skip out")
    func captureTimes() {
        var timeline = StreamTimeline(sampleRate: 48000, preSkip: 312)
        timeline.packetStarts(captureTime: 5_000_000)
        timeline.fed(frames: 960)
        timeline.packetStarts(captureTime: 5_020_400)  // the phone's clock drifts a little: trust each packet
        timeline.fed(frames: 960)
        #expect(timeline.streamTime(ofStreamFrame: 312) == 0)
        #expect(timeline.streamTime(ofStreamFrame: 48312) == 1)
        // Decoded frame f holds input sample f − 312.
        #expect(timeline.captureTime(ofStreamFrame: 480) == 5_003_500)
        #expect(timeline.captureTime(ofStreamFrame: 960 + 48) == 5_014_500, "input 696: still the first packet")
        #expect(timeline.captureTime(ofStreamFrame: 960 + 312) == 5_020_400, "input 960: the second packet's start")
        #expect(timeline.captureTime(ofStreamFrame: 5000) == 5_020_400 + 77_667)
    }

    @Test("a skipped gap moves stream time ahead of the detector's count, from the splice on")
    func splices() {
        var timeline = StreamTimeline(sampleRate: 48000, preSkip: 0, spliceCapacity: 2)
        timeline.fed(frames: 1000)
        timeline.skipped(frames: 500)
        timeline.fed(frames: 1000)
        #expect(timeline.streamFrames == 2500)
        #expect(timeline.streamFrame(ofDetectorFrame: 999) == 999)
        #expect(timeline.streamFrame(ofDetectorFrame: 1000) == 1500)
        timeline.skipped(frames: 100)
        timeline.skipped(frames: 10)  // evicts the first splice: frames before the oldest kept get its total
        #expect(timeline.streamFrame(ofDetectorFrame: 1999) == 2499)
        #expect(timeline.streamFrame(ofDetectorFrame: 2000) == 2610)
        #expect(timeline.streamFrame(ofDetectorFrame: 10) == 510)
    }

    @Test("a capture gap (the phone's clock jumps past the audio sent) is skipped in stream time and counted")
    func captureGaps() {
        var timeline = StreamTimeline(sampleRate: 48000, preSkip: 0)
        timeline.packetStarts(captureTime: 1_000_000)
        timeline.fed(frames: 960)
        timeline.packetStarts(captureTime: 1_028_000)  // 8 ms late: jitter within the tolerance, not a gap
        timeline.fed(frames: 960)
        #expect(timeline.streamFrames == 1920 && timeline.captureGaps.count == 0)
        timeline.packetStarts(captureTime: 1_148_000)  // 100 ms of input never sent
        #expect(timeline.streamFrames == 1920 + 4800)
        #expect(timeline.captureGaps == .init(count: 1, micros: 100_000))
        timeline.fed(frames: 960)
        #expect(timeline.streamTime(ofStreamFrame: timeline.streamFrames) == 0.16, "stream time = the phone's 160 ms")
        #expect(timeline.captureTime(ofStreamFrame: 6720 + 480) == 1_158_000)
        timeline.packetStarts(captureTime: 1_100_000)  // earlier than expected: nothing to fill
        timeline.fed(frames: 960)
        timeline.packetStarts(captureTime: 1_120_000 + 60_000_000)  // a reset clock: re-anchored, not skipped
        #expect(timeline.captureGaps.count == 1 && timeline.streamFrames == 6720 + 1920)
    }

    @Test("a pre-skip given after the stream started shifts the times reported from then on")
    func latePreSkip() {
        var timeline = StreamTimeline(sampleRate: 48000, preSkip: 0)
        timeline.packetStarts(captureTime: 5_000_000)
        timeline.fed(frames: 960)
        #expect(timeline.captureTime(ofStreamFrame: 480) == 5_010_000)
        timeline.preSkip = 312
        #expect(timeline.captureTime(ofStreamFrame: 480) == 5_003_500)
        #expect(timeline.streamTime(ofStreamFrame: 312) == 0)
    }

    @Test("no packet yet: no capture time; before every packet kept: from the oldest")
    func captureBounds() {
        var timeline = StreamTimeline(sampleRate: 1000, preSkip: 0, packetCapacity: 2)
        #expect(timeline.captureTime(ofStreamFrame: 0) == nil)
        for packet in 0..<4 {
            timeline.packetStarts(captureTime: UInt64(packet) * 10_000)
            timeline.fed(frames: 10)
        }
        #expect(timeline.captureTime(ofStreamFrame: 35) == 35_000)
        #expect(timeline.captureTime(ofStreamFrame: 5) == 5_000)
    }
}
