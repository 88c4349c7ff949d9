import PongWire

/// One emulated phone's journey, as a pure state machine: events in (HTTP replies, server messages, socket
/// open/close, timers, the run's chaos and stop), actions out. It reads no clock and touches no socket; the
/// `PhoneDriver` performs its actions on the phone's event loop.
///
/// Overview (the order of `docs/PROTOCOL.md`):
///
///     start → POST /auth/guest | /auth/signup → POST /users/profile → POST /sessions/{code}/join (429: wait
///     Retry-After, retry) → open the player socket → hello, permissions, streamConfig, battery → (readiness with
///     the battery check ok: everything before it was handled) → connectionTest.start → answer probe.ping, send
///     filler on probe.upload → connectionTest → POST /streams/start (video null, audio Opus) → real-time audio
///     (its first frame makes the track live) → readiness canBeReady → ready → lobby shows the player ready
///
/// The battery check turning `ok` is the acknowledgement that permissions and streamConfig were processed (the
/// server handles a socket's messages in order and sends `readiness` after every change): `welcome` answers only
/// `hello`, so no step waits for it.
/// The test runs before any audio, so media never queues behind the filler. In `.probeOnly` mode the journey ends
/// at the connection test's result (no stream is started).
struct PhoneJourney {
    /// What the journey is for.
    enum Mode: Hashable, Sendable {
        /// The whole journey to ready, then streaming until stopped.
        case play
        /// Only the connection test (the `probe` subcommand).
        case probeOnly
    }

    /// Where the phone stands.
    enum Step: Hashable, Sendable {
        case idle, authenticating, profiling, joining, connecting, greeting, startingStreams, testing
        case awaitingReadiness, readySent, ready, finished
    }

    /// An HTTP call of the journey; the driver turns it into a request (`PhoneJourney+HTTP.swift`).
    enum HTTPCall: Hashable, Sendable {
        /// `POST /auth/guest`.
        case guest
        /// `POST /auth/signup`.
        case signup(SignupRequest)
        /// `POST /users/profile`.
        case profile(ProfileRequest)
        /// `POST /sessions/{code}/join` with the code as typed.
        case join(code: String)
        /// `POST /streams/start`.
        case streamsStart(StreamStartRequest)
    }

    /// Timers the journey arms.
    enum Timer: Hashable, Sendable {
        /// Repeat the last HTTP call (after a 429's or a 503's Retry-After).
        case retryHTTP
        /// Open the socket again after a drop.
        case reconnect
        /// Start another connection test after a failed one.
        case retryTest
        /// A vanished phone is back: drop the dead socket, open a new one and resume.
        case reappear
    }

    /// What the driver must do.
    enum Action: Hashable, Sendable {
        /// Make this HTTP call, with `Authorization: Bearer token` when a token is given.
        case http(HTTPCall, token: String?)
        /// Open the player WebSocket at this URL.
        case connect(SocketURL)
        /// Send a text message.
        case send(ClientMessage)
        /// Start the real-time audio stream now (stream time 0 is now).
        case startAudio
        /// Stop sending audio packets (the socket is down); packets falling due meanwhile are skipped.
        case pauseAudio
        /// Send audio again (sequence numbers and stream time continue past the gap).
        case resumeAudio
        /// Send upload-probe filler for this many seconds, as fast as the socket allows.
        case sendFiller(seconds: Double)
        /// Deliver `timer(_:now:)` at this instant.
        case schedule(Timer, at: MonoTime)
        /// Close the socket abruptly, without a close frame (chaos).
        case dropSocket
        /// Stop reading the socket (and so answering pings) without closing it: the phone vanished.
        case stopReading
        /// The phone vanished now (the run measures when the lobby shows it `reconnecting`).
        case vanished
        /// These other players turned `reconnecting` in the lobby just received.
        case othersReconnecting([PlayerID])
        /// The server closed the socket with 4100 (restarting).
        case serverRestarting
        /// The seat resumed (`welcome` after `hello {resumeToken}`) this long after the socket was lost;
        /// `restart` when a 4100 lost it.
        case resumed(afterSeconds: Double, restart: Bool)
        /// The socket was closed with 4101 (session moved) and the phone reconnects to this node (`host:port`).
        case followedMove(to: String)
        /// The seat resumed on another node than the one whose socket was lost, this long after the loss.
        case failedOver(afterSeconds: Double)
        /// Count one error with this code.
        case countError(String)
        /// The connection test's result.
        case testResult(ConnectionTestResult)
        /// `ready` was sent; `joinToReady` seconds after the phone's scheduled start.
        case readySent(joinToReady: Double)
        /// The lobby shows this player ready.
        case readyConfirmed
        /// A dropped socket was replaced and `hello {resumeToken}` sent.
        case reconnected
        /// A `bounce` heard on this phone's own microphone.
        case bounce(Bounce)
        /// The journey is over: nil when it ended as planned, else why it failed.
        case finished(SimError?)
    }

    /// The phone's fixed facts.
    let identity: PhoneIdentity
    /// The session code as the person types it (`abc-234`).
    let typedCode: String
    /// The audio track to announce at `POST /streams/start`.
    let audio: StreamStartRequest.Audio?
    /// Play or probe only.
    let mode: Mode
    /// How many connection tests to try before giving up.
    var maxTestAttempts = 3
    /// How many times an HTTP call that got no reply (server down, restarting) is tried again before the journey fails.
    var maxTransportRetries = 8
    /// The pongd nodes (`--server`, in order); HTTP calls go to `servers[server]`.
    let servers: [ServerAddress]
    /// How many 503 `session_unavailable` / `store_unavailable` answers in a row are waited out before the journey fails.
    var maxUnavailableRetries = 20
    /// With several nodes: seconds from losing the socket within which the seat must be back on some node (asking
    /// the nodes in turn), else the journey fails.
    var failoverLimit = 30.0
    /// At most this many 4101s in a row are followed at once; the next is retried like a drop (and counted).
    static let maxConsecutiveMoves = 5

    // State, read by tests; set only by the event methods (here and in `PhoneJourney+Events.swift`).
    var step: Step = .idle
    var token: String?
    var userId: UserID?
    var playerId: PlayerID?
    var resumeToken: String?
    /// The node HTTP calls go to now (an index in `servers`).
    var server: Int
    /// The player socket's URL (from the join, or the last 4101).
    var socketURL: SocketURL?
    /// The node (`host:port`) of the socket the last `welcome` came on.
    var welcomedNode: String?
    var testResult: ConnectionTestResult?
    var lastReadiness: ReadinessReport?
    var confirmedReady = false
    var scheduledStart: MonoTime?
    var pendingCall: HTTPCall?
    var testAttempts = 0
    var socketOpen = false
    var everConnected = false
    var droppingOnPurpose = false
    var audioStarted = false
    var stopped = false
    /// Delays between attempts to reopen a lost socket (docs/PROTOCOL.md, "Reconnecting").
    var backoff = ReconnectBackoff()
    /// Delays between tries of an HTTP call that got no reply.
    var httpBackoff = ReconnectBackoff()
    /// When the socket was lost by surprise (a drop or a 4100), until the seat resumes; whether a 4100 lost it.
    var lostAt: MonoTime?
    var lostToRestart = false
    /// 4101s followed since the last `welcome`; the socket being opened is one a 4101 pointed to.
    var consecutiveMoves = 0
    var moving = false
    /// The node did not take the socket again: the phone asks the next node (`POST …/join` again) for its socket.
    var rejoining = false
    /// 503 `session_unavailable` / `store_unavailable` answers waited out in a row.
    var unavailableRetries = 0
    /// Other players the last lobby showed `reconnecting`.
    var othersReconnecting: Set<PlayerID> = []

    /// A phone that will join the session `typedCode`, making its HTTP calls to `servers[server]` (several
    /// `--server` nodes: it asks the next one when its node is gone).
    init(identity: PhoneIdentity, typedCode: String, audio: StreamStartRequest.Audio?, mode: Mode,
         servers: [ServerAddress] = [.standard], server: Int = 0) {
        self.identity = identity
        self.typedCode = typedCode
        self.audio = audio
        self.mode = mode
        self.servers = servers.isEmpty ? [.standard] : servers
        self.server = server % self.servers.count
    }

    /// Whether the socket is open as far as the journey knows.
    var isConnected: Bool { socketOpen }

    /// Whether the socket was lost and the seat has not resumed since.
    var isLost: Bool { lostAt != nil }

    /// Starts the journey; `scheduledStart` is the phone's slot in the ramp (join→ready counts from it).
    mutating func start(scheduledStart: MonoTime) -> [Action] {
        guard step == .idle else { return [] }
        self.scheduledStart = scheduledStart
        step = .authenticating
        if identity.signUp {
            return call(.signup(SignupRequest(name: identity.displayName, email: identity.email,
                                              password: identity.password, acceptTerms: true)))
        }
        return call(.guest)
    }

    /// Delivers an armed timer.
    mutating func timer(_ timer: Timer, now: MonoTime) -> [Action] {
        guard step != .finished else { return [] }
        switch timer {
        case .retryHTTP:
            guard let pendingCall else { return [] }
            return call(pendingCall)
        case .reconnect:
            guard !socketOpen, !stopped, !rejoining, let socketURL else { return [] }
            droppingOnPurpose = false  // a failed attempt is retried with backoff
            return [.connect(socketURL)]
        case .reappear:
            droppingOnPurpose = false
            guard !stopped, let socketURL else { return [.dropSocket] + finish() }
            return [.dropSocket, .connect(socketURL)]
        case .retryTest:
            guard step == .testing, socketOpen else { return [] }
            return [.send(.connectionTestStart)]
        }
    }

    /// The run asks this phone to lose its network for `downFor` seconds (chaos). Only phones that sent `ready`
    /// and are connected take part; the others answer nothing.
    mutating func chaosDrop(now: MonoTime, downFor: Double) -> [Action] {
        guard step == .readySent || step == .ready, socketOpen, !stopped else { return [] }
        socketOpen = false
        droppingOnPurpose = true
        return [.pauseAudio, .dropSocket, .schedule(.reconnect, at: now.adding(seconds: downFor))]
    }

    /// The phone vanishes for `downFor` seconds (its radio gone, no FIN): it stops reading, answering pings and
    /// sending, its socket left open; then it drops that socket and resumes on a new one. Only phones that sent
    /// `ready` and are connected take part.
    mutating func vanish(now: MonoTime, downFor: Double) -> [Action] {
        guard step == .readySent || step == .ready, socketOpen, !stopped else { return [] }
        socketOpen = false
        droppingOnPurpose = true
        return [.pauseAudio, .stopReading, .vanished, .schedule(.reappear, at: now.adding(seconds: downFor))]
    }

    /// The run is over for this phone: stop streaming; the host ends the session.
    mutating func stop() -> [Action] {
        stopped = true
        return audioStarted ? [.pauseAudio] : []
    }

    mutating func call(_ call: HTTPCall) -> [Action] {
        pendingCall = call
        return [.http(call, token: token)]
    }

    /// Ends the journey with `error`.
    mutating func fail(_ error: SimError) -> [Action] {
        guard step != .finished else { return [] }
        step = .finished
        return (audioStarted ? [.pauseAudio] : []) + [.finished(error)]
    }

    /// Ends the journey as planned.
    mutating func finish() -> [Action] {
        guard step != .finished else { return [] }
        step = .finished
        return (audioStarted ? [.pauseAudio] : []) + [.finished(nil)]
    }

}
