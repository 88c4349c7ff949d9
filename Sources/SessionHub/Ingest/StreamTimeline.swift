/// Maps positions in the audio a detector was fed to a stream's time and to the phone's capture clock.
///
/// The detector sees decoded (and concealed) samples back to back; a gap too long to conceal is skipped, so from
/// then on stream time runs ahead of the detector's count by the skipped frames (a *splice*). Each received packet
/// records where it starts in stream frames and its `captureTime`, so an onset's capture time is its packet's plus
/// its offset into the packet. Bounded: the last `spliceCapacity` splices and `packetCapacity` packets are kept
/// (detections come at most ~10 ms after their onset, far less than either covers).
package struct StreamTimeline: Sendable {
    /// Decoded sample rate (frames per second).
    package let sampleRate: Int
    /// Frames at the start of the stream that are encoder delay (`preSkip`, converted to `sampleRate`).
    package private(set) var preSkipFrames: Int64
    /// Input the phone did not send (its capture clock jumped ahead of the audio: a browser dropping microphone
    /// input under load) and stream time skipped, so it stays on the phone's clock.
    package struct CaptureGaps: Hashable, Sendable {
        /// Gaps filled.
        package var count = 0
        /// Their total length, µs.
        package var micros: UInt64 = 0
        package init(count: Int = 0, micros: UInt64 = 0) {
            self.count = count
            self.micros = micros
        }
    }
    /// A packet whose `captureTime` is later than the audio before it accounts for by more than this is a gap.
    package static let captureGapTolerance: UInt64 = 10_000
    /// A jump longer than this is the phone's clock being reset, not lost input: the timeline re-anchors on it.
    package static let maxCaptureGap: UInt64 = 5_000_000
    /// Capture gaps filled so far.
    package private(set) var captureGaps = CaptureGaps()
    /// The last packet's start and captureTime: where the next one is expected.
    private var lastPacket: (start: Int64, captureTime: UInt64)?
    private let packetCapacity: Int
    private let spliceCapacity: Int
    /// Frames handed to the detector so far.
    package private(set) var detectorFrames: Int64 = 0
    /// Frames skipped without decoding so far.
    package private(set) var skippedFrames: Int64 = 0
    /// (detector frame where the skip happened, total skipped from there on), oldest first.
    private var splices: [(at: Int64, skipped: Int64)] = []
    /// Frames skipped before the oldest splice kept.
    private var skippedBeforeSplices: Int64 = 0
    /// Ring of (stream frame where a packet starts, its captureTime in µs).
    private var packets: [(start: Int64, captureTime: UInt64)]
    private var nextPacket = 0

    /// The encoder delay in 48 kHz frames, as in an OpusHead (it may be given after the stream started).
    package var preSkip: Int {
        get { Int(preSkipFrames * 48000 / Int64(sampleRate)) }
        set { preSkipFrames = Int64(newValue) * Int64(sampleRate) / 48000 }
    }

    /// `preSkip` is in frames at 48 kHz, as in an OpusHead.
    package init(sampleRate: Int, preSkip: Int, packetCapacity: Int = 64, spliceCapacity: Int = 8) {
        self.sampleRate = sampleRate
        self.preSkipFrames = Int64(preSkip) * Int64(sampleRate) / 48000
        self.packetCapacity = max(1, packetCapacity)
        self.spliceCapacity = max(1, spliceCapacity)
        packets = []
        packets.reserveCapacity(self.packetCapacity)
        splices.reserveCapacity(self.spliceCapacity)
    }

    /// Stream frames so far (decoded, concealed and skipped).
    package var streamFrames: Int64 { detectorFrames + skippedFrames }

    /// A received packet's audio is about to be fed: remember where it starts and when it was captured. A packet
    /// captured later than the audio so far accounts for (past `captureGapTolerance`, up to `maxCaptureGap`) follows
    /// input the phone never sent: stream time skips the gap, so it stays on the phone's clock. Earlier ones, and
    /// longer jumps (a reset clock), change nothing.
    package mutating func packetStarts(captureTime: UInt64) {
        if let last = lastPacket {
            let elapsed = UInt64(max(0, streamFrames - last.start)) * 1_000_000 / UInt64(sampleRate)
            let expected = last.captureTime &+ elapsed
            if captureTime > expected, (Self.captureGapTolerance + 1...Self.maxCaptureGap).contains(captureTime - expected) {
                let gap = captureTime - expected
                skipped(frames: Int(gap * UInt64(sampleRate) / 1_000_000))
                captureGaps.count += 1
                captureGaps.micros += gap
            }
        }
        lastPacket = (streamFrames, captureTime)
        let entry = (start: streamFrames, captureTime: captureTime)
        if packets.count < packetCapacity {
            packets.append(entry)
        } else {
            packets[nextPacket] = entry
        }
        nextPacket = (nextPacket + 1) % packetCapacity
    }

    /// `frames` (decoded or concealed) went to the detector.
    package mutating func fed(frames: Int) {
        detectorFrames += Int64(frames)
    }

    /// `frames` of stream time pass without audio (a gap too long to conceal).
    package mutating func skipped(frames: Int) {
        guard frames > 0 else { return }
        skippedFrames += Int64(frames)
        if splices.count == spliceCapacity { skippedBeforeSplices = splices.removeFirst().skipped }
        splices.append((at: detectorFrames, skipped: skippedFrames))
    }

    /// The stream frame of a detector position.
    package func streamFrame(ofDetectorFrame frame: Int64) -> Int64 {
        var skipped = skippedBeforeSplices
        for splice in splices where splice.at <= frame { skipped = splice.skipped }
        return frame + skipped
    }

    /// Seconds from the first decoded sample, less `preSkip` (`bounce.streamTime`).
    package func streamTime(ofStreamFrame frame: Int64) -> Double {
        Double(frame - preSkipFrames) / Double(sampleRate)
    }

    /// The phone's capture time, in µs, of a stream frame: the decoder delays every input sample by `preSkip`
    /// frames, so the frame holds input sample `frame − preSkip`, whose time is the captureTime of the packet that
    /// carried it plus its offset into that packet (from the oldest known packet when it is older than all of them);
    /// nil before any packet.
    package func captureTime(ofStreamFrame decoded: Int64) -> UInt64? {
        let frame = decoded - preSkipFrames
        var best: (start: Int64, captureTime: UInt64)?
        var oldest: (start: Int64, captureTime: UInt64)?
        for packet in packets {
            if packet.start <= frame, packet.start >= (best?.start ?? .min) { best = packet }
            if packet.start < (oldest?.start ?? .max) { oldest = packet }
        }
        guard let anchor = best ?? oldest else { return nil }
        let offset = Double(frame - anchor.start) * 1_000_000 / Double(sampleRate)
        let micros = Double(anchor.captureTime) + offset.rounded()
        return micros <= 0 ? 0 : (micros >= Double(UInt64.max) ? UInt64.max : UInt64(micros))
    }
}
