import NIOCore
import PongClient
import PongWire

import Foundation

/// The I/O shell of one phone: performs its `PhoneJourney`'s actions on one event loop (HTTP calls, the player
/// socket, timers) and streams audio in real time (`PhoneDriver+Audio.swift`).
///
/// Confined to `loop`: every method runs there, so the class needs no lock (hence `@unchecked Sendable`).
final class PhoneDriver: @unchecked Sendable {
    /// The phone's loop.
    let loop: any EventLoop
    /// The session (index in the run) the phone joins.
    let session: Int
    /// The audio to stream (nil for a probe-only phone).
    let track: AudioTrack?
    /// The run's shared measurements (rare events: the journey's steps and errors).
    let stats: SimStats
    /// This phone's packet, filler and bounce counts, merged into `stats` at the end of the run.
    var counters = PhoneStats()
    /// Duration, chaos, filler and address settings.
    let settings: PhoneSettings
    /// Who hears about ready, streamed-enough, finished and test results.
    weak var events: (any PhoneEvents)?

    /// The pure journey whose actions this driver performs.
    var journey: PhoneJourney
    /// The current player socket (nil while down).
    var socket: WebSocketClient?
    /// Armed journey timers.
    var timers: [PhoneJourney.Timer: Scheduled<Void>] = [:]
    /// Real-time audio pacing.
    var audio = AudioState()
    /// The connection test's filler burst.
    var filler = FillerState()
    /// The next chaos drop.
    var chaosTask: Scheduled<Void>?
    /// The phone's vanish (`--vanish-count`).
    var vanishTask: Scheduled<Void>?
    /// The seat resumed after a server restart: bounces from then on are counted apart.
    var resumedAfterRestart = false
    /// Stream time and kind of each own bounce.
    var detections: [BounceScorer.Detection] = []
    /// Latency of each detection (ms; -1 when unmapped), for `--dump-bounces`.
    var latencies: [Double] = []
    /// Recently sent packets, for bounce latency.
    var ring = LatencyRing()
    /// Stream time actually sent, for scoring.
    var windows = StreamWindows()
    /// `phoneStreamedEnough` was reported (once per phone).
    var reportedStop = false

    /// A phone of `session` (an index in the run) walking `journey`, whose servers its calls go to.
    init(loop: any EventLoop, session: Int, track: AudioTrack?, stats: SimStats,
         settings: PhoneSettings, journey: PhoneJourney, events: any PhoneEvents) {
        self.loop = loop
        self.session = session
        self.track = track
        self.stats = stats
        self.settings = settings
        self.journey = journey
        self.events = events
    }

    /// The monotonic clock.
    static func now() -> MonoTime { MonoTime(nanoseconds: NIODeadline.now().uptimeNanoseconds) }

    /// Starts the journey (on the loop); `scheduled` is the phone's ramp slot.
    func start(scheduled: MonoTime) {
        loop.execute {
            self.stats.update { $0.players += 1 }
            self.perform(self.journey.start(scheduledStart: scheduled))
            let limit = scheduled.adding(seconds: self.settings.readyTimeout)
            _ = self.loop.scheduleTask(deadline: .uptimeNanoseconds(limit.nanoseconds)) {
                guard ![.readySent, .ready, .finished].contains(self.journey.step) else { return }
                self.stats.countError("ready_timeout")
                self.perform(self.journey.fail(.timeout("not ready \(Int(self.settings.readyTimeout)) s after its start "
                    + "(step \(self.journey.step))")))
            }
        }
    }

    /// Performs actions in order.
    func perform(_ actions: [PhoneJourney.Action]) {
        for action in actions { perform(action) }
    }

    private func perform(_ action: PhoneJourney.Action) {
        switch action {
        case .http(let call, let token):
            let request = call.request
            let server = journey.servers[journey.server]
            HTTPClient.send(request.method, request.path, json: request.json.isEmpty ? nil : request.json,
                            token: token, host: server.host, port: server.port,
                            from: settings.sourceAddress(phone: journey.identity.index),
                            on: loop)
                .whenComplete { result in
                    switch result {
                    case .success(let reply):
                        if case .join = call, (200..<300).contains(reply.status) { self.stats.joinAnswered(by: server) }
                        self.perform(self.journey.httpReplied(status: reply.status, body: reply.body,
                                                              retryAfter: reply.retryAfter, now: Self.now()))
                    case .failure(let error):
                        self.perform(self.journey.httpFailed("\(error)", now: Self.now(),
                                                             uniform: self.settings.jitter()))
                    }
                }
        case .connect(let url):
            guard !url.secure else {
                stats.countError("wss_unsupported")
                perform(journey.fail(.socketRefused("\(url): pong-player-sim speaks no TLS")))
                return
            }
            let source = settings.sourceAddress(phone: journey.identity.index)
            socket = WebSocketClient.connect(.phone(url, from: source), on: loop) {
                [weak self] socket, event in self?.socket(socket, reported: event)
            }
        case .send(let message):
            guard let text = try? MessageCodec.encodeJSON(message) else { return }
            socket?.send(text: text)
        case .startAudio:
            startAudio()
        case .pauseAudio:
            audio.paused = true
        case .resumeAudio:
            audio.paused = false
        case .sendFiller(let seconds):
            startFiller(seconds: seconds)
        case .schedule(let timer, let at):
            timers[timer]?.cancel()
            timers[timer] = loop.scheduleTask(deadline: .uptimeNanoseconds(at.nanoseconds)) {
                self.timers[timer] = nil
                self.perform(self.journey.timer(timer, now: Self.now()))
            }
        case .dropSocket:
            socket?.drop()
            socket = nil
        case .stopReading:
            socket?.stopReading()
        case .vanished:
            if let player = journey.playerId { stats.vanished(player, at: Self.now()) }
        case .othersReconnecting(let players):
            stats.sawReconnecting(players, at: Self.now())
        case .serverRestarting:
            stats.update { $0.restartCloses += 1 }
        case .resumed(let seconds, let restart):
            if restart { resumedAfterRestart = true }
            stats.resumed(afterSeconds: seconds, restart: restart, at: Self.now())
        case .followedMove:
            stats.update { $0.moves += 1 }
        case .failedOver(let seconds):
            stats.failedOver(afterSeconds: seconds)
        case .countError(let code):
            stats.countError(code)
        case .testResult(let result):
            stats.update { $0.uploadMbps.append(result.uploadMbps) }
            events?.phoneTested(session: session, result: result)
        case .readySent(let joinToReady):
            stats.update {
                $0.readySent += 1
                _ = $0.joinToReady.record(SimStats.micros(joinToReady))
            }
            scheduleChaos()
            scheduleVanish()
        case .readyConfirmed:
            stats.update { $0.ready += 1 }
            events?.phoneReady(session: session)
        case .reconnected:
            stats.update { $0.reconnects += 1 }
        case .bounce(let bounce):
            heard(bounce)
        case .finished(let error):
            finished(error)
        }
    }

    private func heard(_ bounce: Bounce) {
        let arrival = Self.now()
        detections.append(.init(time: streamTime(of: bounce), kind: bounce.kind.rawValue))
        let latency = ring.latency(captureTime: UInt64(max(0, bounce.captureTime)), arrival: arrival)
        latencies.append(latency.map { $0 * 1000 } ?? -1)
        counters.bounceHeard(latency: latency)
        if resumedAfterRestart { counters.bouncesAfterRestart += 1 }
    }

    /// Where a bounce is in this phone's stream, in seconds: its `captureTime` on the phone's own clock less the
    /// capture time of stream sample 0 (`audio.start`; the server's capture times already count the encoder delay
    /// out: on one uninterrupted stream this equals `bounce.streamTime` to the µs). Not the server's `streamTime`,
    /// which starts again at 0 on a node that restored the session (a restart, a failover, a handover): the phone's
    /// capture clock never jumps.
    func streamTime(of bounce: Bounce) -> Double {
        guard let start = audio.start else { return bounce.streamTime }
        return AudioTrack.streamSeconds(captureMicros: bounce.captureTime, startMicros: start.microseconds)
    }

    private func finished(_ error: SimError?) {
        for timer in timers.values { timer.cancel() }
        timers = [:]
        chaosTask?.cancel()
        vanishTask?.cancel()
        audio.task?.cancel()
        audio.stopped = true
        filler.end = nil
        if let error {
            stats.update { $0.failed += 1 }
            Console.error("phone \(journey.identity.index): \(error)")
            socket?.close()
        }
        if !reportedStop {
            reportedStop = true
            events?.phoneStreamedEnough(session: session)
        }
        events?.phoneFinished(session: session, error: error, wasReady: journey.confirmedReady)
    }

    /// Arms the next chaos drop (exponential gaps, mean 60/R s), down for 0.5–3 s.
    private func scheduleChaos() {
        guard settings.chaosDropsPerMinute > 0, chaosTask == nil else { return }
        let mean = 60 / settings.chaosDropsPerMinute
        let gap = -mean * log(min(max(settings.chaosUniform(), Double.ulpOfOne), 1))
        chaosTask = loop.scheduleTask(in: .nanoseconds(Int64(gap * 1e9))) {
            self.chaosTask = nil
            guard !self.audio.stopped else { return }
            let downFor = 0.5 + 2.5 * min(max(self.settings.chaosUniform(), 0), 1)
            self.perform(self.journey.chaosDrop(now: Self.now(), downFor: downFor))
            self.scheduleChaos()
        }
    }

    /// Phones `0..<vanishCount` vanish once, `vanishAfter` s after sending `ready`, for `vanishFor` s.
    private func scheduleVanish() {
        guard journey.identity.index < settings.vanishCount, vanishTask == nil else { return }
        vanishTask = loop.scheduleTask(in: .nanoseconds(Int64(settings.vanishAfter * 1e9))) {
            self.perform(self.journey.vanish(now: Self.now(), downFor: self.settings.vanishFor))
        }
    }

    /// This phone's bounce score (call on the loop, after the run).
    func score(with scorer: BounceScorer) -> BounceScorer.Score {
        scorer.score(detections, windows: windows.windows)
    }

    // MARK: Socket events

    /// What the current socket reports (on the loop); a dropped socket's events are ignored.
    private func socket(_ socket: WebSocketClient, reported event: WebSocketClient.Event) {
        let now = Self.now()
        guard socket === self.socket else { return }
        switch event {
        case .opened:
            perform(journey.socketOpened(now: now))
        case .text(let text):
            guard let message = try? MessageCodec.decode(ServerMessage.self, from: Array(text.utf8)) else { return }
            perform(journey.received(message, now: now))
        case .closed(let code):
            self.socket = nil
            perform(journey.socketClosed(code: code, reason: socket.closeReason, now: now, uniform: settings.jitter()))
        case .writable:
            pumpFiller()
        }
    }
}
