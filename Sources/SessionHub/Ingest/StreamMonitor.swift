import PongWire

/// Watches one player's started tracks: `starting` until the first frame, then `live`; `failed` when no frame came
/// within `startTimeout` of `POST /streams/start` or none for `stallTimeout` while live. A failed track that sends
/// again is live again. A muted track is never failed (a muted phone may stop sending); its clock restarts when it
/// is unmuted. The hub holds every track of a player whose socket is down the same way, so a reconnecting phone is
/// not failed either. Every `reportInterval` it reports the stream (`stream {state, resolution, fps, uploadKbps}`).
///
/// Pure: no clock, no I/O. `LiveSession` feeds it frames and ticks and performs its actions.
package struct StreamMonitor: Sendable {
    /// Time limits of the monitor.
    package struct Configuration: Hashable, Sendable {
        /// A started track with no frame after this long fails.
        package var startTimeout: Duration = .seconds(3)
        /// A live track with no frame for this long fails.
        package var stallTimeout: Duration = .seconds(5)
        /// Time between two `stream` reports.
        package var reportInterval: Duration = .seconds(1)

        package init() {}
    }

    /// What the monitor asks for.
    package enum Action: Hashable, Sendable {
        /// A track changed state: tell the journey (lobby, readiness).
        case trackChanged(MediaKind, MediaState)
        /// Send this `stream` message to the player; `grade` is the media upload rate's (nil before a reading).
        case report(StreamReport, grade: ConnectionGrade?)
    }

    /// Texts shown with a failed video track (the spec's "Stream Error" diagnostics).
    package static let videoDiagnostics = ["Check camera permissions", "Check network connection", "Restart app if needed"]
    /// Texts shown with a failed audio track.
    package static let audioDiagnostics = ["Check microphone permissions", "Check network connection",
                                           "Restart app if needed"]

    private struct Track: Sendable {
        var state: MediaState = .starting
        /// The start, the last frame, or the last unmute: what the timeouts count from.
        var since: ContinuousClock.Instant
        var held = false
    }

    package let configuration: Configuration
    private var video: Track?
    private var audio: Track?
    private var meter = MediaRateMeter()
    /// The video's picture size, once a key frame told it.
    package private(set) var resolution: VideoResolution?
    private var nextReport: ContinuousClock.Instant

    /// Tracks started by `POST /streams/start` at `now` (false: the player goes without it).
    package init(video: Bool, audio: Bool, now: ContinuousClock.Instant, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.video = video ? Track(since: now) : nil
        self.audio = audio ? Track(since: now) : nil
        nextReport = now + configuration.reportInterval
    }

    /// Whether the track was started (frames of a track not started are an error).
    package func isStarted(_ kind: MediaKind) -> Bool {
        self[track: kind] != nil
    }

    /// A frame of `bytes` (header included) arrived on a track; a first frame or a frame after a failure makes it
    /// live.
    package mutating func frameArrived(_ kind: MediaKind, bytes: Int, now: ContinuousClock.Instant) -> [Action] {
        meter.record(bytes: bytes, countsFrame: kind == .video, now: now)
        let action = update(kind) { track in
            track.since = now
            guard track.state != .live else { return nil }
            track.state = .live
            return .trackChanged(kind, .live)
        }
        return action.map { [$0] } ?? []
    }

    /// A video key frame told the picture size.
    package mutating func resolutionSeen(_ resolution: VideoResolution) {
        self.resolution = resolution
    }

    /// Time passed: fails overdue tracks and reports when a report is due. `held` says which tracks may not fail
    /// now (muted ones; all of them while the player's socket is down); a track released since the last tick gets
    /// its full timeout again.
    package mutating func tick(now: ContinuousClock.Instant, held: LobbySnapshot.Muted) -> [Action] {
        var actions: [Action] = []
        let configuration = self.configuration
        for kind in MediaKind.allCases {
            let isHeld = kind == .video ? held.video : held.audio
            let action = update(kind) { track in
                defer { track.held = isHeld }
                if track.held, !isHeld { track.since = now }
                guard !isHeld, track.state != .failed else { return nil }
                let limit = track.state == .live ? configuration.stallTimeout : configuration.startTimeout
                guard now - track.since >= limit else { return nil }
                track.state = .failed
                return .trackChanged(kind, .failed)
            }
            if let action { actions.append(action) }
        }
        if now >= nextReport {
            nextReport += configuration.reportInterval
            if nextReport <= now { nextReport = now + configuration.reportInterval }
            let rate = meter.rate(now: now)  // one reading for the report and its grade
            actions.append(.report(report(rate: rate), grade: rate?.grade))
        }
        return actions
    }

    /// The `stream` message as of `now`.
    package func report(now: ContinuousClock.Instant) -> StreamReport {
        report(rate: meter.rate(now: now))
    }

    /// The `stream` message with the meter's reading `rate`.
    private func report(rate: MediaRateMeter.Rate?) -> StreamReport {
        let tracks = [video, audio].compactMap { $0 }
        let state: StreamState =
            if tracks.contains(where: { $0.state == .failed }) { .failed }
            else if tracks.allSatisfy({ $0.state == .live }) { .live }
            else { .starting }
        var diagnostics: [String]?
        if video?.state == .failed { diagnostics = Self.videoDiagnostics }
        else if audio?.state == .failed { diagnostics = Self.audioDiagnostics }
        let hasVideo = video != nil
        let kbps = ((rate?.kbps ?? 0) * 10).rounded() / 10
        return StreamReport(state: state, resolution: hasVideo ? resolution?.description : nil,
                            fps: hasVideo ? rate?.roundedFPS : nil, uploadKbps: kbps, diagnostics: diagnostics)
    }

    /// The track of `kind` (nil when not started).
    private subscript(track kind: MediaKind) -> Track? {
        get { kind == .video ? video : audio }
        set {
            if kind == .video { video = newValue } else { audio = newValue }
        }
    }

    /// Applies `change` to a started track; nil for a track not started.
    private mutating func update(_ kind: MediaKind, _ change: (inout Track) -> Action?) -> Action? {
        guard var track = self[track: kind] else { return nil }
        defer { self[track: kind] = track }
        return change(&track)
    }
}
