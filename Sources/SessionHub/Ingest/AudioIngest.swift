import BounceDetector
import PongWire

/// One player's microphone stream: decodes each packet (Opus with libopus, AAC ADTS with libavcodec), conceals lost
/// Opus packets, feeds the PCM to an `ImpactDetector` and turns its impacts into `bounce` payloads with stream time
/// and capture time (`StreamTimeline`).
///
/// Opus is decoded straight to mono at 48 kHz (libopus mixes stereo down for free); AAC at the stream's own rate, the
/// detector made on the first decoded frame. Not thread-safe: it lives on its session's queue.
public final class AudioIngest {
    /// An impact as the `bounce` message reports it.
    public struct Detection: Hashable, Sendable {
        /// Seconds from the first decoded sample, less `preSkip`.
        public var streamTime: Double
        /// µs on the phone's clock.
        public var captureTime: UInt64
        /// Table, racket or unknown.
        public var kind: ImpactKind
        /// 0...1.
        public var confidence: Double
    }

    /// Gaps of up to this many packets, within `concealmentBudget`, are concealed (libopus PLC); longer ones are
    /// skipped in stream time.
    public static let maxConcealedPackets = 25

    /// The codec `POST /streams/start` chose (`.opus` or `.aac`).
    public let codec: MediaFrame.Codec
    /// The encoder delay in 48 kHz frames: from `POST /streams/start`, or `audio.preSkip` later (taken for every
    /// bounce reported after it).
    public var preSkip: Int {
        didSet { timeline?.preSkip = preSkip }
    }
    private var decoder: Decoder
    private var detector: ImpactDetector?
    private var timeline: StreamTimeline?
    private var sequence = SequenceTracker()
    /// Frames per packet, as last decoded (sizes a skipped gap).
    private var packetFrames = 960
    /// Packets that may still be concealed: starts at `maxConcealedPackets`, one more per packet received (up to
    /// that), one less per packet concealed. A phone that skips `seq` on purpose cannot make the server decode many
    /// concealed packets per real one; a real burst of loss after good audio is still concealed whole.
    private var concealmentBudget = AudioIngest.maxConcealedPackets
    /// Packets concealed so far (diagnostics and tests).
    package private(set) var concealedPackets = 0
    private let tune: @Sendable (inout DetectorParameters) -> Void

    private enum Decoder {
        case opus(OpusPacketDecoder)
        case aac(AACFrameDecoder)
    }

    /// Opens the decoder for `codec` (`.opus` or `.aac`; a video codec is `unsupported`); `preSkip` is the encoder
    /// delay in 48 kHz frames.
    public init(codec: MediaFrame.Codec, preSkip: Int = 0,
                tune: @escaping @Sendable (inout DetectorParameters) -> Void = { _ in }) throws(AudioError) {
        self.preSkip = preSkip
        self.tune = tune
        self.codec = codec
        switch codec {
        case .opus:
            decoder = .opus(try OpusPacketDecoder(sampleRate: 48000, channels: 1))
            try makeDetector(sampleRate: 48000, channels: 1)
        case .aac:
            decoder = .aac(try AACFrameDecoder())
        case .h264, .vp8, .filler:
            throw AudioError(.unsupported, "ingest: \(codec.label) is not an audio codec")
        }
    }

    /// Opens the decoder for a `POST /streams/start` audio codec.
    package convenience init(codec: AudioCodec, preSkip: Int = 0) throws(AudioError) {
        try self.init(codec: codec == .opus ? MediaFrame.Codec.opus : .aac, preSkip: preSkip)
    }

    /// Capture gaps filled so far (`StreamTimeline.CaptureGaps`): input the phone never sent.
    package var captureGaps: StreamTimeline.CaptureGaps { timeline?.captureGaps ?? .init() }

    /// Stream time so far, in seconds (decoded, concealed and skipped audio, less `preSkip`).
    public var streamTime: Double {
        guard let timeline else { return 0 }
        return timeline.streamTime(ofStreamFrame: timeline.streamFrames)
    }

    /// Takes one audio frame's payload; `onDetection` gets every impact the detector decided on meanwhile.
    /// Returns false for a duplicate (a `seq` already passed), which is dropped unread. Throws `codec_mismatch` or
    /// `undecodable_media` (the stream stays usable).
    @discardableResult
    public func ingest(_ payload: UnsafeRawBufferPointer, codec: MediaFrame.Codec, sequence number: UInt32,
                       captureTime: UInt64, onDetection: (Detection) -> Void) throws(IngestError) -> Bool {
        guard codec == self.codec else { throw .codecMismatch(expected: self.codec, got: codec) }
        switch sequence.step(number) {
        case .stale:
            return false
        case .first, .next, .restarted:
            break
        case .lost(let count):
            recover(lost: count, onDetection: onDetection)
        }
        let pcm: UnsafeBufferPointer<Float>
        do {
            switch decoder {
            case .opus(let opus): pcm = try opus.decode(payload)
            case .aac(let aac):
                pcm = try aac.decode(payload)
                if let format = detector?.format {
                    guard format.sampleRate == aac.sampleRate, format.channels == aac.channels else {
                        throw AudioError(.unsupported, "AAC: the stream changed its rate or channels")
                    }
                } else if aac.sampleRate > 0 {
                    try makeDetector(sampleRate: aac.sampleRate, channels: aac.channels)
                }
            }
        } catch {
            throw .undecodable(codec)
        }
        guard let channels = detector?.format.channels, !pcm.isEmpty else { return true }
        concealmentBudget = min(Self.maxConcealedPackets, concealmentBudget + 1)
        timeline?.packetStarts(captureTime: captureTime)
        packetFrames = pcm.count / channels
        feed(pcm, onDetection: onDetection)
        return true
    }

    /// Lost packets: Opus conceals short gaps (so the detector hears continuous audio); longer gaps, and any AAC
    /// gap, advance stream time without audio.
    private func recover(lost count: Int, onDetection: (Detection) -> Void) {
        if case .opus(let opus) = decoder, count <= concealmentBudget {
            concealmentBudget -= count
            for _ in 0..<count {
                guard let pcm = try? opus.concealLoss() else { break }
                concealedPackets += 1
                feed(pcm, onDetection: onDetection)
            }
            return
        }
        timeline?.skipped(frames: count * packetFrames)
    }

    private func feed(_ pcm: UnsafeBufferPointer<Float>, onDetection: (Detection) -> Void) {
        guard let detector else { return }
        self.timeline?.fed(frames: pcm.count / detector.format.channels)
        guard let timeline else { return }
        detector.process(pcm) { impact in
            let frame = timeline.streamFrame(ofDetectorFrame: impact.frame)
            let streamTime = timeline.streamTime(ofStreamFrame: frame)
            guard streamTime >= 0, let capture = timeline.captureTime(ofStreamFrame: frame) else { return }
            onDetection(Detection(streamTime: streamTime, captureTime: capture, kind: impact.kind,
                                  confidence: Double(impact.confidence)))
        }
    }

    private func makeDetector(sampleRate: Int, channels: Int) throws(AudioError) {
        detector = try ImpactDetector(format: AudioFormat(sampleRate: sampleRate, channels: channels), tune: tune)
        timeline = StreamTimeline(sampleRate: sampleRate, preSkip: preSkip)
    }
}

extension BounceKind {
    /// The wire kind of a detector's impact.
    init(_ kind: ImpactKind) {
        switch kind {
        case .table: self = .table
        case .racket: self = .racket
        case .unknown: self = .unknown
        }
    }
}
