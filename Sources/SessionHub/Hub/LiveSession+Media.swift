import BounceDetector
import Foundation
import NIOCore
import PongWire

/// Binary frames from a player's socket: probe filler for the prober; audio decoded and listened to for bounces;
/// video inspected for its picture size; both metered by the player's `StreamMonitor` once accepted.
extension LiveSession {
    /// Handles one parsed frame from `connection` (`buffer` holds the whole frame); a frame out of place or unusable
    /// is dropped and gets an `error` message (throttled per socket, `mediaRejected`).
    func mediaFrame(_ frame: MediaFrame, in buffer: ByteBuffer, from connection: ConnectionID) {
        let arrival = ContinuousClock.now
        queue.async {
            guard case .player(let player, let greeted)? = self.state.sockets[connection], greeted else {
                self.mediaRejected(self.notFromAPlayer(connection) ?? .outOfOrder("Say hello before sending media"),
                                   from: connection, at: arrival)
                return
            }
            switch frame.kind {
            case .uploadFiller:
                self.fillerArrived(from: player, bytes: frame.byteCount, at: arrival)
            case .audio, .video:
                self.mediaArrived(frame, in: buffer, from: player, on: connection, at: arrival)
            }
        }
    }

    /// Bulk probe filler read from `connection` in one burst (`FillerBatch`): feeds the player's running test.
    func filler(bytes: Int, from connection: ConnectionID) {
        let arrival = ContinuousClock.now
        queue.async {
            guard case .player(let player, let greeted)? = self.state.sockets[connection], greeted else {
                self.mediaRejected(self.notFromAPlayer(connection) ?? .outOfOrder("Say hello before sending media"),
                                   from: connection, at: arrival)
                return
            }
            self.fillerArrived(from: player, bytes: bytes, at: arrival)
        }
    }

    /// A binary message from `connection` that is not a media frame: answered like every rejected frame.
    func malformedFrame(_ error: MediaFrameError, from connection: ConnectionID) {
        let arrival = ContinuousClock.now
        queue.async {
            self.mediaRejected(self.notFromAPlayer(connection) ?? error.apiError, from: connection, at: arrival)
        }
    }

    /// `dashboard_read_only` for a dashboard's socket (it sends nothing, binary included), else nil.
    private func notFromAPlayer(_ connection: ConnectionID) -> APIError? {
        if case .dashboard? = state.sockets[connection] { return .dashboardReadOnly }
        return nil
    }

    /// A frame from `connection` was dropped: counted by its code, and answered with `error` unless the socket got
    /// a media error less than `mediaErrors.interval` ago.
    private func mediaRejected(_ error: APIError, from connection: ConnectionID, at arrival: ContinuousClock.Instant) {
        metrics.mediaRejected(error.code)
        if mediaErrors.mayReport(to: connection, now: arrival) { send(.error(error), to: connection) }
    }

    private func mediaArrived(_ frame: MediaFrame, in buffer: ByteBuffer, from player: PlayerID,
                              on connection: ConnectionID, at arrival: ContinuousClock.Instant) {
        let kind: MediaKind = frame.kind == .audio ? .audio : .video
        guard let streams = streams[player], streams.monitor.isStarted(kind) else {
            mediaRejected(.streamNotStarted, from: connection, at: arrival)
            return
        }
        let taken: Bool
        do throws(IngestError) {
            taken = try buffer.withUnsafeReadableBytes { bytes throws(IngestError) -> Bool in
                let payload = frame.payload(in: bytes)
                if kind == .video {
                    guard frame.codec == streams.videoCodec else {
                        throw .codecMismatch(expected: streams.videoCodec ?? frame.codec, got: frame.codec)
                    }
                    streams.inspectVideo(payload, codec: frame.codec)
                    return true
                }
                guard let audio = streams.audio else { return true }
                return try audio.ingest(payload, codec: frame.codec, sequence: frame.sequence,
                                        captureTime: frame.captureTime) { detection in
                    bounceHeard(detection, from: player, arrival: arrival)
                }
            }
        } catch {
            mediaRejected(error.apiError, from: connection, at: arrival)
            return
        }
        // A duplicate audio frame is dropped silently: it counts for nothing, and keeps no track live.
        if taken { frameAccepted(frame, kind, of: streams, from: player, at: arrival) }
    }

    /// A frame passed its track's checks (codec, decoder): only now does it count for the metrics, the session's
    /// activity and the stream monitor (which makes a starting or failed track live).
    private func frameAccepted(_ frame: MediaFrame, _ kind: MediaKind, of streams: PlayerStreams,
                               from player: PlayerID, at arrival: ContinuousClock.Instant) {
        metrics.mediaFrame(kind)
        state.activity(now: arrival)
        perform(streams.monitor.frameArrived(kind, bytes: frame.byteCount, now: arrival), for: player)
    }

    /// An impact: to everyone in the lobby and the dashboard at once, then to the store.
    private func bounceHeard(_ detection: AudioIngest.Detection, from player: PlayerID,
                             arrival: ContinuousClock.Instant) {
        let bounce = Bounce(playerId: player, streamTime: (detection.streamTime * 1e6).rounded() / 1e6,
                            captureTime: Int64(clamping: detection.captureTime), kind: BounceKind(detection.kind),
                            confidence: (detection.confidence * 1000).rounded() / 1000)
        broadcast(.bounce(bounce))
        metrics.bounce(bounce.kind, latency: arrival.duration(to: .now))
        onBounce(bounce)
    }

    /// Performs a player's monitor actions.
    func perform(_ actions: [StreamMonitor.Action], for player: PlayerID) {
        for action in actions {
            switch action {
            case .trackChanged(let kind, let mediaState):
                logger.info("stream track changed", metadata: [
                    "player.id": "\(player)", "track": "\(kind.rawValue)", "state": "\(mediaState.rawValue)",
                ])
                perform(state.mediaChanged(player, kind, to: mediaState, now: .now))
            case .report(var report, let grade):
                if let gaps = streams[player]?.audio?.captureGaps, gaps.count > 0 {
                    report.captureGaps = .init(count: gaps.count, ms: (Double(gaps.micros) / 100).rounded() / 10)
                }
                if let socket = state.seats[player]?.connection { send(.stream(report), to: socket) }
                // The host's dashboard shows every player's stream: the same report, with whose it is.
                report.playerId = player
                for dashboard in state.dashboards { send(.stream(report), to: dashboard) }
                let actions = state.mediaRateGraded(player, grade)
                if !actions.isEmpty { perform(actions) }
            }
        }
    }
}
