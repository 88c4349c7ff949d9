import Dispatch
import Foundation
import Logging
import PongWire

/// The owner of one live session: its `SessionState`, its sockets and its timer, all confined to one serial queue.
///
/// Every event for the session — an HTTP call, a socket message, a timer — is run on `queue` by the state machine;
/// the returned actions are performed here (writes hop to each socket's event loop inside `WebSocketConnection`).
final class LiveSession: @unchecked Sendable {
    /// The join code.
    let code: SessionCode
    /// The serial queue everything below is confined to.
    let queue: DispatchQueue
    // All of these are confined to `queue`; the extensions in LiveSession+*.swift use them there only.
    var state: SessionState
    var sockets: [ConnectionID: WebSocketConnection] = [:]
    private var timer: (any DispatchSourceTimer)?
    /// Running connection tests, each with its own wake-up timer.
    var probes: [PlayerID: (probe: ConnectionProbe, timer: any DispatchSourceTimer)] = [:]
    /// Each streaming player's monitor, decoder and detector (`POST /streams/start` makes them).
    var streams: [PlayerID: PlayerStreams] = [:]
    /// Ticks the stream monitors while any stream exists.
    var monitorTimer: (any DispatchSourceTimer)?
    /// Timeouts of the stream monitors.
    let monitorConfiguration: StreamMonitor.Configuration
    /// When each socket last got an `error` answering a binary frame (LiveSession+Media.swift).
    var mediaErrors: MediaErrorThrottle
    /// Stores a detected bounce (called on `queue`; must not block it).
    let onBounce: @Sendable (Bounce) -> Void
    /// Journeys as last recorded (written, or held), so only changes are written.
    private var storedJourneys: [PlayerID: PlayerJourney.Snapshot] = [:]
    /// Changes the store has not taken yet, written before any later one.
    private var held = HeldWrites()
    /// The phase as last recorded.
    private var recordedPhase: SessionPhase
    /// When activity was last recorded.
    private var recordedActivity = Date.distantPast
    /// Writes acknowledged changes before they are acknowledged.
    private let recorder: SessionRecorder
    let logger: Logger
    /// Called (on `queue`) once the session is over, with the changes the store has not taken yet (its end among
    /// them while the store is out of reach).
    private let onDiscard: @Sendable (SessionCode, HeldWrites) -> Void
    /// Set once the session moved to another node (`release`): nothing runs here any more.
    private(set) var released = false

    let metrics: HubMetrics

    init(state: SessionState, queue: DispatchQueue, logger: Logger, metrics: HubMetrics,
         monitorConfiguration: StreamMonitor.Configuration = StreamMonitor.Configuration(),
         mediaErrorInterval: Duration,
         recorder: SessionRecorder,
         onBounce: @escaping @Sendable (Bounce) -> Void = { _ in },
         onDiscard: @escaping @Sendable (SessionCode, HeldWrites) -> Void) {
        self.code = state.code
        self.metrics = metrics
        self.monitorConfiguration = monitorConfiguration
        self.mediaErrors = MediaErrorThrottle(interval: mediaErrorInterval)
        self.onBounce = onBounce
        self.recorder = recorder
        self.recordedPhase = state.phase
        self.state = state
        self.queue = queue
        var logger = logger
        logger[metadataKey: "session.code"] = "\(state.code)"
        self.logger = logger
        self.onDiscard = onDiscard
    }

    /// Runs an event on the session's queue and performs its actions.
    func submit(_ event: @escaping @Sendable (inout SessionState, ContinuousClock.Instant) -> [SessionState.Action]) {
        queue.async {
            guard !self.released else { return }
            let actions = event(&self.state, .now)
            self.perform(actions)
        }
    }

    /// Runs an event that answers an HTTP request; `completion` gets its value or its error, after the actions ran.
    func request<Value: Sendable>(
        _ event: @escaping @Sendable (inout SessionState, ContinuousClock.Instant) throws(APIError) -> (Value, [SessionState.Action]),
        completion: @escaping @Sendable (Result<Value, APIError>) -> Void
    ) {
        queue.async {
            do throws(APIError) {
                guard !self.released else { throw APIError.sessionUnavailable }
                let (value, actions) = try event(&self.state, .now)
                self.perform(actions)
                completion(.success(value))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Reads the state on the queue.
    func read<Value: Sendable>(_ body: @escaping @Sendable (SessionState) -> Value,
                               completion: @escaping @Sendable (Value) -> Void) {
        queue.async { completion(body(self.state)) }
    }

    /// A socket for this session opened: remember it, then let the state machine greet or refuse it. `gate` runs
    /// first, on the queue: when it returns an error and a close code the socket gets them and never reaches the
    /// state machine. `opened`: when a socket that waited for its session to be found opened (its hello deadline runs
    /// from there).
    func attach(_ connection: WebSocketConnection, user: UserID, dashboard: Bool,
                opened: ContinuousClock.Instant? = nil,
                gate: @escaping @Sendable (SessionState) -> (APIError, CloseCode)? = { _ in nil }) {
        let id = ConnectionID(connection.id)
        queue.async {
            if self.released {
                connection.close(code: CloseCode.serverRestarting.code, reason: CloseCode.serverRestarting.reason)
                return
            }
            if let (error, code) = gate(self.state) {
                self.metrics.error(error.code)
                if let text = self.encode(.error(error)) { connection.send(text: text) }
                connection.close(code: code.code, reason: code.reason)
                return
            }
            self.sockets[id] = connection
            let now = ContinuousClock.now
            let actions = dashboard
                ? self.state.dashboardOpened(id, user: user, now: now)
                : self.state.socketOpened(id, user: user, now: now, opened: opened)
            self.perform(actions)
        }
    }

    /// A socket closed: forget it and tell the state machine (a player's seat turns `reconnecting`).
    func detach(_ connection: WebSocketConnection) {
        let id = ConnectionID(connection.id)
        queue.async {
            guard self.sockets.removeValue(forKey: id) != nil else { return }
            self.mediaErrors.forget(id)
            self.perform(self.state.socketClosed(id, now: .now))
        }
    }

    func perform(_ actions: [SessionState.Action]) {
        guard !released else { return }
        record(actions)
        for action in actions {
            switch action {
            case .send(let id, let message):
                send(message, to: id)
            case .broadcastLobby:
                broadcast(state.lobbyMessage)
            case .close(let id, let code):
                sockets[id]?.close(code: code.code, reason: code.reason)
            case .scheduleTimer(let deadline):
                arm(deadline)
            case .startConnectionTest(let player):
                startProbe(for: player)
            case .cancelConnectionTest(let player):
                stopProbe(for: player)
            case .probePong(let player, let stamp, let receivedAt):
                probePong(player, stamp, receivedAt: receivedAt)
            case .setAudioPreSkip(let player, let frames):
                streams[player]?.audio?.preSkip = frames
            case .seatFreed(let player):
                stopProbe(for: player)
                stopStreams(of: player)
                logger.info("seat freed", metadata: ["player.id": "\(player)"])
            case .discardSession:
                timer?.cancel()
                timer = nil
                for player in Array(probes.keys) { stopProbe(for: player) }
                streams.removeAll()
                disarmMonitor()
                let left = held
                held = HeldWrites()
                if !left.isEmpty { recorder.holding(false) }
                onDiscard(code, left)
            }
        }
    }

    /// Stops serving the session on this node without ending it, because another node owns it now (a drain's
    /// handover, or an adoption while this node could not renew its lease): every socket is closed with the code
    /// `closing` gives it (4101 and the owner's URL), timers, probes and decoders stop, nothing more is written, and
    /// `completion` runs on the queue. The store keeps the session as it was for its new owner.
    func release(closing: @escaping @Sendable (WebSocketConnection) -> CloseCode,
                 completion: @escaping @Sendable () -> Void) {
        queue.async {
            guard !self.released else { return completion() }
            self.released = true
            self.dropHeldWrites(because: "the session moved to another node")
            self.timer?.cancel()
            self.timer = nil
            for player in Array(self.probes.keys) { self.stopProbe(for: player) }
            self.streams.removeAll()
            self.disarmMonitor()
            for connection in self.sockets.values {
                let code = closing(connection)
                connection.close(code: code.code, reason: code.reason)
            }
            self.sockets.removeAll()
            completion()
        }
    }

    /// A new seat was stored with this journey (`SessionHub.recordSeat`): it is not written again until it changes.
    /// Call on the queue, from the join's event.
    func seatStored(_ player: PlayerID, journey: PlayerJourney.Snapshot) {
        storedJourneys[player] = journey
    }

    /// Writes the changes the store has not taken yet, if any (the store is back).
    func retryHeldWrites() {
        queue.async {
            guard !self.released, !self.held.isEmpty else { return }
            self.flushHeld()
        }
    }

    /// Changes the store has not taken yet (tests).
    func heldWrites(completion: @escaping @Sendable (HeldWrites) -> Void) {
        queue.async { completion(self.held) }
    }

    /// Records what the event changed — its phase, the seats it freed, the journeys it moved, that the session is in
    /// use — before any of its actions tells a client about it: written now, after any change held before it.
    private func record(_ actions: [SessionState.Action]) {
        let wasHolding = !held.isEmpty
        let now = recorder.now()
        if state.phase != recordedPhase {
            recordedPhase = state.phase
            held.append(.phase(state.phase, at: now))
        }
        for case .seatFreed(let player) in actions {
            storedJourneys[player] = nil
            held.append(.seatFreed(player, at: now))
        }
        // An ended session's seats are not restored (and its guests' rows go with it): their journeys are not kept.
        if state.phase != .ended {
            for (player, snapshot) in state.journeySnapshots(now: .now, wallNow: now)
            where storedJourneys[player] != snapshot {
                storedJourneys[player] = snapshot
                held.append(.journey(player, snapshot))
            }
            if now.timeIntervalSince(recordedActivity) >= recorder.activityInterval {
                recordedActivity = now
                held.append(.activity(now))
            }
        }
        guard !held.isEmpty else { return }
        flushHeld(wasHolding: wasHolding)
    }

    /// Writes the held changes in order until the store refuses one; tells the hub when holding starts or stops.
    private func flushHeld(wasHolding: Bool = true) {
        let written = held.flush(recorder.write)
        if written == wasHolding { recorder.holding(!written) }
    }

    /// Forgets the held changes: the session is not this node's to write any more.
    private func dropHeldWrites(because reason: String) {
        guard !held.isEmpty else { return }
        logger.warning("changes the store had not taken are dropped", metadata: [
            "writes": "\(held.writes.count)", "reason": "\(reason)",
        ])
        held = HeldWrites()
        recorder.holding(false)
    }

    /// Sends a message to every greeted player and the dashboard, encoded once.
    func broadcast(_ message: ServerMessage) {
        guard let text = encode(message) else { return }
        for id in state.lobbyAudience { sockets[id]?.send(text: text) }
    }

    func send(_ message: ServerMessage, to id: ConnectionID) {
        if case .error(let body) = message { metrics.error(body.code) }
        guard let socket = sockets[id], let text = encode(message) else { return }
        socket.send(text: text)
    }

    private func encode(_ message: ServerMessage) -> String? {
        do {
            return try MessageCodec.encode(message)
        } catch {
            logger.error("cannot encode a server message", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// (Re)arms the session's single timer; when it fires the state machine's `tick` runs on the queue.
    private func arm(_ deadline: ContinuousClock.Instant) {
        let timer = self.timer ?? makeTimer()
        timer.schedule(deadline: Self.dispatchTime(at: deadline), leeway: .milliseconds(5))
    }

    /// `deadline` on Dispatch's clock.
    static func dispatchTime(at deadline: ContinuousClock.Instant) -> DispatchTime {
        let delay = max(.zero, ContinuousClock.now.duration(to: deadline))
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(min(seconds, 365 * 24 * 3600)) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        return .now() + .nanoseconds(nanoseconds)
    }

    private func makeTimer() -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        // A @Sendable handler set from nonisolated code (see DESIGN.md, Threading).
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.perform(self.state.tick(now: .now))
        }
        timer.resume()
        self.timer = timer
        return timer
    }
}
