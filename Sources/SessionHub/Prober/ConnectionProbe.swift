import PongWire

/// One player's connection test as a pure state machine (DESIGN.md, "Prober"). No clocks, no randomness, no I/O:
/// the owner (the session's queue) passes `now` into every event and performs the returned actions in order.
///
/// 1. Idle latency. `start(now:)` sends the first of `idlePings` `probe.ping {id, t}`, one every `pingInterval`
///    (10 over 0.72 s by default). `id` counts from 1; `t` is µs from `epoch` to the send, so any echo maps back
///    to its ping. `pong(_:now:)` records the round trip; unknown ids, changed `t`s and repeats are ignored.
/// 2. Upload. When every idle ping is answered, or `idlePhaseLimit` after the start, the probe asks for
///    `probe.upload {seconds}`. Filler frames (`fillerReceived(bytes:now:)`) are measured by receive time after
///    discarding `rampUp` of TCP slow start (`UploadRateEstimator`). From `rampUp` after the request until the
///    upload ends it keeps pinging: latency under load.
/// 3. Result. `upload + grace` after the request, `tick(now:)` returns `.completed(result)` — median and p90 round
///    trips idle and under load, jitter (mean absolute difference of consecutive idle round trips), upload Mbps and
///    its grade — or `.failed(reason)` for too few pongs or no filler. With the defaults that is at most 3 s after
///    the start.
///
/// Timer: every `.wakeUp(at:)` replaces the previous one; call `tick(now:)` when it fires (an early or late call
/// is harmless). A probe runs one test: after its result or `cancel()` every event is ignored.
package struct ConnectionProbe: Sendable {
    enum State: Hashable, Sendable {
        case notStarted
        case idle(startedAt: ContinuousClock.Instant, nextPingAt: ContinuousClock.Instant)
        case upload(requestedAt: ContinuousClock.Instant, nextPingAt: ContinuousClock.Instant?)
        case finished
    }

    struct Ping: Hashable, Sendable {
        let stamp: ProbeStamp
        let sentAt: ContinuousClock.Instant
        let underLoad: Bool
        var roundTrip: Duration?
    }

    /// Timing and thresholds.
    package let configuration: Configuration
    /// The instant pings' `t` counts from.
    package let epoch: ContinuousClock.Instant
    private(set) var state: State = .notStarted
    private(set) var pings: [Ping] = []
    private var idleSent = 0
    private var idleAnswered = 0
    private(set) var filler: UploadRateEstimator

    /// A probe that has not started; `epoch` is the zero of the pings' `t` (e.g. the server's start).
    package init(configuration: Configuration = Configuration(), epoch: ContinuousClock.Instant) {
        self.configuration = configuration
        self.epoch = epoch
        filler = UploadRateEstimator(rampUp: configuration.rampUp)
        pings.reserveCapacity(configuration.maximumPings)
    }

    /// True from `start` until the result (or `cancel`).
    package var isRunning: Bool {
        switch state {
        case .idle, .upload: true
        case .notStarted, .finished: false
        }
    }

    /// Pings sent so far.
    package var pingsSent: Int { pings.count }
    /// Pings answered so far.
    package var pongsReceived: Int { pings.count(where: { $0.roundTrip != nil }) }
    /// Filler bytes counted in this test's upload window.
    package var fillerBytes: Int { filler.totalBytes }

    /// Starts the test: the first ping and a wake-up. Ignored unless the probe is new.
    package mutating func start(now: ContinuousClock.Instant) -> [Action] {
        guard case .notStarted = state else { return [] }
        state = .idle(startedAt: now, nextPingAt: now)
        return tick(now: now)
    }

    /// The timer fired: pings that are due, the upload request, or the result; and the next wake-up.
    package mutating func tick(now: ContinuousClock.Instant) -> [Action] {
        switch state {
        case .notStarted, .finished:
            return []
        case .idle(let startedAt, let nextPingAt):
            var actions: [Action] = []
            var next = nextPingAt
            if idleSent < configuration.idlePings, now >= nextPingAt {
                actions += sendPing(now: now, underLoad: false)
                next = following(nextPingAt, now: now)
            }
            let idleDeadline = startedAt + configuration.idlePhaseLimit
            if idleSent == configuration.idlePings, idleAnswered == idleSent || now >= idleDeadline {
                return actions + requestUpload(now: now)
            }
            state = .idle(startedAt: startedAt, nextPingAt: next)
            return actions + [.wakeUp(at: idleSent < configuration.idlePings ? next : idleDeadline)]
        case .upload(let requestedAt, let nextPingAt):
            let finishAt = requestedAt + configuration.upload + configuration.grace
            if now >= finishAt {
                state = .finished
                return [outcome(requestedAt: requestedAt)]
            }
            var actions: [Action] = []
            var next = nextPingAt
            if let due = nextPingAt, now >= due {
                actions += sendPing(now: now, underLoad: true)
                let after = following(due, now: now)
                next = after < requestedAt + configuration.upload ? after : nil
            }
            state = .upload(requestedAt: requestedAt, nextPingAt: next)
            return actions + [.wakeUp(at: min(next ?? finishAt, finishAt))]
        }
    }

    /// A `probe.pong` arrived at `now`. Records its round trip; once every idle ping is answered the upload burst
    /// is requested at once. Unknown ids, a `t` that is not the ping's, repeats and late pongs change nothing.
    package mutating func pong(_ stamp: ProbeStamp, now: ContinuousClock.Instant) -> [Action] {
        guard stamp.id >= 1, stamp.id <= pings.count else { return [] }
        let index = stamp.id - 1
        let ping = pings[index]
        guard ping.stamp == stamp, ping.roundTrip == nil, now >= ping.sentAt else { return [] }
        switch state {
        case .notStarted, .finished:
            return []
        case .upload(let requestedAt, _):
            guard now < requestedAt + configuration.upload + configuration.grace else { return [] }
        case .idle:
            break
        }
        pings[index].roundTrip = now - ping.sentAt
        guard !ping.underLoad else { return [] }
        idleAnswered += 1
        if case .idle = state, idleSent == configuration.idlePings, idleAnswered == idleSent {
            return requestUpload(now: now)
        }
        return []
    }

    /// An upload-probe filler frame of `bytes` arrived at `now`. Returns whether it counted for this test (it
    /// arrived between the upload request and the end of the window); others are for the caller to count.
    @discardableResult
    package mutating func fillerReceived(bytes: Int, now: ContinuousClock.Instant) -> Bool {
        guard case .upload(let requestedAt, _) = state, now >= requestedAt,
              now < requestedAt + configuration.upload + configuration.grace
        else { return false }
        filler.record(bytes: bytes, now: now)
        return true
    }

    /// Abandons the test (the player left or asked again): no result will come; disarm the timer.
    package mutating func cancel() {
        state = .finished
    }

    private mutating func sendPing(now: ContinuousClock.Instant, underLoad: Bool) -> [Action] {
        guard pings.count < configuration.maximumPings else { return [] }
        let stamp = ProbeStamp(id: pings.count + 1, t: ProbeTime.microseconds(now - epoch))
        pings.append(Ping(stamp: stamp, sentAt: now, underLoad: underLoad))
        if !underLoad { idleSent += 1 }
        return [.sendPing(stamp)]
    }

    /// The next ping instant after one due at `due` and sent at `now`: on the cadence, but never a burst.
    private func following(_ due: ContinuousClock.Instant, now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        let next = due + configuration.pingInterval
        return next > now ? next : now + configuration.pingInterval
    }

    private mutating func requestUpload(now: ContinuousClock.Instant) -> [Action] {
        let firstPing = now + configuration.rampUp
        let next = firstPing < now + configuration.upload ? firstPing : nil
        let finishAt = now + configuration.upload + configuration.grace
        state = .upload(requestedAt: now, nextPingAt: next)
        return [.requestUpload(ProbeUpload(seconds: ProbeTime.seconds(configuration.upload))),
                .wakeUp(at: min(next ?? finishAt, finishAt))]
    }
}
