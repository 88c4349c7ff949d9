import PongWire

/// One player's way through the journey, from joining to ready, as a pure state machine.
///
/// Phases advance in order: `joined` → `profiled` (display name set) → `permissions` (camera and microphone each
/// granted or denied) → `streamConfigured` (`streamConfig`, or `POST /streams/start`) → `tested` (a connection test
/// finished) → `ready`. A message that skips ahead gets `error {code: "out_of_order"}` and changes nothing; a
/// repeated `ready`/`unready` is a no-op. The spec's branches are choices made at `POST /streams/start`: `video: null`
/// is "join without video" (the way on after a denied camera), `audio: null` "continue without audio".
///
/// Readiness (`Readiness.evaluate`) is re-evaluated after every event and sent when it changes; a ready player whose
/// readiness comes to fail (stream failed, permission revoked) drops back to `tested`. While ready, the age of the
/// connection test is not held against the player: the stream keeps the grade current.
///
/// The connection is `connected` or `reconnecting(until:)`: a dropped socket keeps the seat until the deadline
/// (`disconnected`), a new socket's `hello` restores it (`connected`). A new seat starts as reconnecting until its
/// first socket says hello, so a seat nobody connects to is freed like a dropped one.
///
/// No clocks, sockets or randomness: every event takes `now` and returns `Action`s for `SessionState` to route.
package struct PlayerJourney: Hashable, Sendable {
    /// Steps of the journey, in order.
    package enum Phase: Int, Comparable, Sendable, CaseIterable {
        case joined, profiled, permissions, streamConfigured, tested, ready

        package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Whether the player's socket is up.
    package enum Connection: Hashable, Sendable {
        /// A socket said hello and is open.
        case connected
        /// No socket; the seat is kept until the deadline.
        case reconnecting(until: ContinuousClock.Instant)
    }

    /// What the journey asks its owner to do.
    package enum Action: Hashable, Sendable {
        /// Send this message to the player's socket (dropped while reconnecting).
        case send(ServerMessage)
        /// The lobby snapshot changed: send it to everyone.
        case broadcastLobby
        /// Ask the prober to run a connection test with this player.
        case startConnectionTest
        /// Tell the prober to abandon this player's running test.
        case cancelConnectionTest
        /// Hand a `probe.pong` to the prober, stamped with its arrival.
        case forwardProbePong(ProbeStamp, receivedAt: ContinuousClock.Instant)
        /// Make sure a timer fires at this instant (the grace deadline).
        case scheduleTimer(at: ContinuousClock.Instant)
        /// The audio track's encoder delay changed (`audio.preSkip`): tell the player's audio ingest.
        case setAudioPreSkip(Int)
    }

    /// A finished connection test and when it finished.
    package struct MeasuredTest: Hashable, Sendable {
        /// The prober's result.
        package var result: ConnectionTestResult
        /// When it finished.
        package var at: ContinuousClock.Instant
    }

    /// Current step.
    package internal(set) var phase: Phase
    /// Socket state.
    package internal(set) var connection: Connection
    /// Display name, once set.
    package internal(set) var displayName: String?
    /// Photo URL, once set.
    package internal(set) var photoURL: String?
    /// Latest `permissions` report.
    package internal(set) var permissions: ClientMessage.Permissions?
    /// The last `POST /streams/start` body (codecs, rate, pre-skip), kept so a restart can reopen the decoders.
    package internal(set) var streamRequest: StreamStartRequest?
    /// Latest `streamConfig`.
    package internal(set) var streamConfig: ClientMessage.StreamConfig?
    /// "Join without video" chosen.
    package internal(set) var withoutVideo = false
    /// "Continue without audio" chosen.
    package internal(set) var withoutAudio = false
    /// Video track state.
    package internal(set) var video: MediaState = .off
    /// Audio track state.
    package internal(set) var audio: MediaState = .off
    /// The player's mutes.
    package internal(set) var muted = LobbySnapshot.Muted()
    /// Latest finished connection test.
    package internal(set) var connectionTest: MeasuredTest?
    /// The grade of the media upload rate while streaming (a lower bound of the link's: media is sent at the
    /// encoder's bitrate); nil before a reading or after a restart of the streams.
    package internal(set) var streamGrade: ConnectionGrade?
    /// A connection test is running.
    package internal(set) var testRunning = false
    /// A running test was cancelled by a dropped socket; the next `hello` is told (`connectionTest {failure}`).
    var testInterrupted = false
    /// Latest battery report.
    package internal(set) var battery: ClientMessage.Battery?
    /// The readiness last sent (or due on the next connect).
    var lastReadiness: ReadinessReport?
    /// The rules' limits.
    package let policy: Readiness.Policy

    /// A new seat, reconnecting until `deadline` (its first socket's hello makes it connected).
    package init(displayName: String?, photoURL: String?, awaitingUntil deadline: ContinuousClock.Instant,
                 policy: Readiness.Policy = Readiness.Policy()) {
        self.init(displayName: displayName, photoURL: photoURL, connection: .reconnecting(until: deadline),
                  policy: policy)
    }

    private init(displayName: String?, photoURL: String?, connection: Connection, policy: Readiness.Policy) {
        self.displayName = displayName
        self.photoURL = photoURL
        self.connection = connection
        self.policy = policy
        self.phase = displayName.map { !$0.isEmpty } == true ? .profiled : .joined
    }

    /// The same seat started afresh (a `hello` without resume token): profile and connection kept, all else reset.
    package func restarted() -> PlayerJourney {
        PlayerJourney(displayName: displayName, photoURL: photoURL, connection: connection, policy: policy)
    }

    /// Ready and connected: counts toward the host's start.
    package var isReadyAndConnected: Bool { phase == .ready && connection == .connected }

    /// True when reconnecting and the grace deadline has passed.
    package func graceExpired(now: ContinuousClock.Instant) -> Bool {
        if case .reconnecting(let deadline) = connection { return now >= deadline }
        return false
    }

    /// The grace deadline while reconnecting.
    package var graceDeadline: ContinuousClock.Instant? {
        if case .reconnecting(let deadline) = connection { return deadline }
        return nil
    }

    /// The `readiness` report at `now`.
    package func readiness(now: ContinuousClock.Instant) -> ReadinessReport {
        var input = Readiness.Input(displayName: displayName)
        input.camera = permissions?.camera ?? .pending
        input.microphone = permissions?.microphone ?? .pending
        input.video = video
        input.audio = audio
        input.withoutVideo = withoutVideo
        input.withoutAudio = withoutAudio
        input.connectionTest = connectionTest?.result
        input.connectionTestAge = phase == .ready ? nil : connectionTest.map { $0.at.duration(to: now) }
        input.battery = battery
        return Readiness.evaluate(input, policy: policy)
    }

    /// This player's entry in the lobby snapshot.
    package func lobbyEntry(_ id: PlayerID) -> LobbySnapshot.Player {
        LobbySnapshot.Player(
            playerId: id, name: displayName ?? "", photoURL: photoURL,
            connection: connection == .connected ? .connected : .reconnecting,
            ready: phase == .ready,
            stream: LobbySnapshot.Stream(video: video, audio: audio, muted: muted),
            grade: lobbyGrade)
    }

    /// The lobby's grade: nil until a connection test has a result (a stream's media rate is only a lower bound of
    /// the link's: an audio-only stream's 32 kb/s would read `poor`), then the test's, raised by what the stream has
    /// since proven the link carries.
    package var lobbyGrade: ConnectionGrade? {
        guard let tested = connectionTest?.result.grade else { return nil }
        guard let streamGrade else { return tested }
        return tested.rank >= streamGrade.rank ? tested : streamGrade
    }
}
