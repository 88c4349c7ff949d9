import PongWire

/// One session as a pure state machine: seats, sockets, host controls, grace periods and idle expiry.
///
/// The owner (the session's serial queue) feeds it events with `now` and performs the returned `Action`s in
/// order. Sockets are numbered by the transport (`ConnectionID`); a player's socket must send `hello` first:
/// with the seat's resume token it resumes the seat as it was, without one it restarts the journey on the seat.
/// A dropped socket leaves the seat `reconnecting` for `gracePeriod`, then the seat is freed. A session with no
/// event for `idleTimeout` ends like a host's end: everyone gets `sessionEnded` and close code 4000.
///
/// Timers: `.scheduleTimer(at:)` (re)arms the session's single timer; when it fires, call `tick(now:)`.
/// HTTP-driven events (`join`, `start`, `end`, `streamStarted`) throw the `APIError` the request answers with.
package struct SessionState: Sendable {
    /// Limits and durations.
    package struct Configuration: Hashable, Sendable {
        /// How long a dropped (or never connected) seat is kept.
        package var gracePeriod: Duration
        /// A session with no event for this long ends.
        package var idleTimeout: Duration
        /// Seats per session.
        package var maxPlayers: Int
        /// Ready, connected players the host's start needs.
        package var minReadyPlayersToStart: Int
        /// The readiness rules' limits.
        package var readiness: Readiness.Policy
        /// A player socket that has not said `hello` this long after it opened is closed with 4005.
        package var helloTimeout: Duration = .seconds(10)

        package init(gracePeriod: Duration = .seconds(60), idleTimeout: Duration = .seconds(2 * 60 * 60),
                     maxPlayers: Int = 8, minReadyPlayersToStart: Int = 2,
                     readiness: Readiness.Policy = Readiness.Policy()) {
            self.gracePeriod = gracePeriod
            self.idleTimeout = idleTimeout
            self.maxPlayers = maxPlayers
            self.minReadyPlayersToStart = minReadyPlayersToStart
            self.readiness = readiness
        }
    }

    /// The session's creator.
    package struct Host: Hashable, Sendable {
        /// The creator's account; only it may start, end, or open the dashboard.
        package var userId: UserID
        /// Display name shown as `host.name`.
        package var name: String

        package init(userId: UserID, name: String) {
            self.userId = userId
            self.name = name
        }
    }

    /// What the owner must do, in order.
    package enum Action: Hashable, Sendable {
        /// Write the message to this socket.
        case send(to: ConnectionID, ServerMessage)
        /// Write `lobbyMessage` to every socket of `lobbyAudience` (evaluated after the event).
        case broadcastLobby
        /// Close this socket with the code.
        case close(ConnectionID, CloseCode)
        /// (Re)arm the session's single timer to call `tick(now:)` at this instant, replacing any earlier arming.
        case scheduleTimer(at: ContinuousClock.Instant)
        /// Have the prober run a connection test with this player.
        case startConnectionTest(PlayerID)
        /// Have the prober abandon this player's test.
        case cancelConnectionTest(PlayerID)
        /// Give the prober a `probe.pong` and its arrival time.
        case probePong(PlayerID, ProbeStamp, receivedAt: ContinuousClock.Instant)
        /// The seat is gone (left, or grace expired): stop its streams.
        case seatFreed(PlayerID)
        /// The player gave its audio encoder's delay (`audio.preSkip`): its audio ingest takes it.
        case setAudioPreSkip(PlayerID, Int)
        /// The session is over: drop it from the live sessions; its code may be reused.
        case discardSession
    }

    /// Result of `join`: the seat and the actions to perform.
    package struct JoinOutcome: Hashable, Sendable {
        /// The seat (the existing one when the user had a seat already).
        package var playerId: PlayerID
        /// The seat's resume token.
        package var resumeToken: String
        /// Actions to perform.
        package var actions: [Action]
    }

    struct Seat: Hashable, Sendable {
        var userId: UserID
        var resumeToken: String
        var journey: PlayerJourney
        /// The socket that said hello for this seat and is still open.
        var connection: ConnectionID?
    }

    enum Socket: Hashable, Sendable {
        case player(PlayerID, greeted: Bool)
        case dashboard
    }

    /// The join code.
    package let code: SessionCode
    /// The creator.
    package internal(set) var host: Host
    /// Game settings.
    package let game: GameSettings
    /// `waiting`, `playing` or `ended`.
    package internal(set) var phase: SessionPhase = .waiting
    /// Limits and durations.
    package let configuration: Configuration

    var seats: [PlayerID: Seat] = [:]
    /// Seats in join order.
    var seatOrder: [PlayerID] = []
    var sockets: [ConnectionID: Socket] = [:]
    /// Player sockets that have not said `hello` yet, with the instant they must have.
    var helloDeadlines: [ConnectionID: ContinuousClock.Instant] = [:]
    var lastActivity: ContinuousClock.Instant
    var armedTimer: ContinuousClock.Instant?

    /// A new waiting session and its first action (the idle timer).
    package static func create(code: SessionCode, host: Host, game: GameSettings, now: ContinuousClock.Instant,
                               configuration: Configuration = Configuration()) -> (SessionState, [Action]) {
        var state = SessionState(code: code, host: host, game: game, configuration: configuration, now: now)
        let actions = state.arm(now + configuration.idleTimeout)
        return (state, actions)
    }

    private init(code: SessionCode, host: Host, game: GameSettings, configuration: Configuration,
                 now: ContinuousClock.Instant) {
        self.code = code
        self.host = host
        self.game = game
        self.configuration = configuration
        self.lastActivity = now
    }

    /// The seat of `user`, if any.
    package func playerID(of user: UserID) -> PlayerID? {
        seatOrder.first { seats[$0]?.userId == user }
    }

    /// The journey of a seated player.
    package func journey(of player: PlayerID) -> PlayerJourney? {
        seats[player]?.journey
    }

    /// Players ready and connected now.
    package var readyPlayerCount: Int {
        seats.values.filter { $0.journey.isReadyAndConnected }.count
    }
}
