@testable import PongWire
import Testing
@testable import SessionHub

/// A session with helpers that walk players through the journey.
struct SessionHarness {
    struct InvalidFixture: Error {}
    static let host = UserID("host")
    let t0 = Fixture.t0
    var state: SessionState
    var initialActions: [SessionState.Action]

    init(configuration: SessionState.Configuration = .init()) throws {
        guard let code = SessionCode(userInput: "ABC-234") else { throw InvalidFixture() }
        (state, initialActions) = SessionState.create(
            code: code, host: .init(userId: Self.host, name: "Hank"),
            game: GameSettings(mode: .rally, pointsToWin: .eleven), now: Fixture.t0, configuration: configuration)
    }

    static func user(_ n: Int) -> UserID { UserID("u\(n)") }
    static func player(_ n: Int) -> PlayerID { PlayerID("p\(n)") }
    static func socket(_ n: Int) -> ConnectionID { ConnectionID(UInt64(n)) }
    static func token(_ n: Int) -> String { "resume-\(n)" }

    /// Player n joined with a name, socket n open and greeted.
    mutating func seat(_ n: Int, at now: ContinuousClock.Instant? = nil) {
        let now = now ?? t0
        _ = try? state.join(user: Self.user(n), displayName: "Player \(n)", photoURL: nil, playerId: Self.player(n),
                            resumeToken: Self.token(n), now: now)
        _ = state.socketOpened(Self.socket(n), user: Self.user(n), now: now)
        _ = state.received(.hello(.init(resumeToken: Self.token(n))), on: Self.socket(n), now: now)
    }

    /// Player n seated and walked to ready along the main path.
    mutating func seatReady(_ n: Int) {
        seat(n)
        let socket = Self.socket(n)
        _ = state.received(.battery(Fixture.fullBattery), on: socket, now: t0)
        _ = state.received(.permissions(Fixture.granted), on: socket, now: t0)
        _ = state.received(.streamConfig(Fixture.config), on: socket, now: t0)
        _ = try? state.streamStarted(user: Self.user(n), request: Fixture.streams(), now: t0)
        _ = state.mediaChanged(Self.player(n), .video, to: .live, now: t0)
        _ = state.mediaChanged(Self.player(n), .audio, to: .live, now: t0)
        _ = state.received(.connectionTestStart, on: socket, now: t0)
        _ = state.connectionTestCompleted(Self.player(n), Fixture.goodTest, now: t0)
        _ = state.received(.ready, on: socket, now: t0)
    }
}

@Suite("Session state: seats, sockets and the lobby")
struct SessionStateTests {
    let t0 = Fixture.t0
    typealias H = SessionHarness

    @Test("a new session is waiting, empty, and arms its idle timer (2 h by default)")
    func create() throws {
        let harness = try H()
        #expect(harness.initialActions == [.scheduleTimer(at: t0 + .seconds(7200))])
        #expect(harness.state.lobby == LobbySnapshot(
            code: "ABC234", displayCode: "ABC-234", state: .waiting, host: .init(name: "Hank"),
            game: GameSettings(mode: .rally, pointsToWin: .eleven, serveRule: .standard), players: []))
    }

    @Test("join seats the player as reconnecting until the first hello, and arms the grace timer")
    func join() throws {
        var harness = try H()
        let outcome = try harness.state.join(user: H.user(1), displayName: "Ana", photoURL: "/p/1.jpg",
                                             playerId: H.player(1), resumeToken: "r1", now: t0)
        #expect(outcome == .init(playerId: H.player(1), resumeToken: "r1",
                                 actions: [.scheduleTimer(at: t0 + .seconds(60)), .broadcastLobby]))
        #expect(harness.state.lobby.players == [LobbySnapshot.Player(
            playerId: H.player(1), name: "Ana", photoURL: "/p/1.jpg", connection: .reconnecting, ready: false,
            stream: .init(video: .off, audio: .off, muted: .init()), grade: nil)])
        let again = try harness.state.join(user: H.user(1), displayName: "Ana", photoURL: nil,
                                           playerId: H.player(9), resumeToken: "r9", now: t0)
        #expect(again == .init(playerId: H.player(1), resumeToken: "r1", actions: []))
    }

    @Test("a full session refuses new players")
    func full() throws {
        var harness = try H(configuration: .init(maxPlayers: 1))
        harness.seat(1)
        #expect(throws: APIError.sessionFull) {
            try harness.state.join(user: H.user(2), displayName: nil, photoURL: nil, playerId: H.player(2),
                                   resumeToken: "r", now: t0)
        }
    }

    @Test("a socket for a user without a seat is told and closed with 4003")
    func notJoined() throws {
        var harness = try H()
        #expect(harness.state.socketOpened(H.socket(1), user: H.user(1), now: t0)
            == [.send(to: H.socket(1), .error(.notJoined)), .close(H.socket(1), .notJoined)])
    }

    @Test("a player socket must say hello first; hello answers welcome, readiness, and a lobby update")
    func hello() throws {
        var harness = try H()
        _ = try harness.state.join(user: H.user(1), displayName: "Ana", photoURL: nil, playerId: H.player(1),
                                   resumeToken: "r1", now: t0)
        let socket = H.socket(1)
        #expect(harness.state.socketOpened(socket, user: H.user(1), now: t0) == [.scheduleTimer(at: t0 + .seconds(10))])
        #expect(harness.state.received(.ready, on: socket, now: t0)
            == [.send(to: socket, .error(.outOfOrder("Send hello first")))])
        #expect(harness.state.lobbyAudience == [])
        let actions = harness.state.received(.hello(.init()), on: socket, now: t0)
        let journey = try #require(harness.state.journey(of: H.player(1)))
        #expect(actions == [
            .send(to: socket, .welcome(Welcome(playerId: H.player(1), resumeToken: "r1", lobby: harness.state.lobby))),
            .send(to: socket, .readiness(journey.readiness(now: t0))),
            .broadcastLobby,
        ])
        #expect(harness.state.lobby.players.first?.connection == .connected)
        #expect(harness.state.lobbyAudience == [socket])
        #expect(harness.state.received(.hello(.init()), on: socket, now: t0)
            == [.send(to: socket, .error(.outOfOrder("hello was already received on this connection")))])
    }

    @Test("journey messages are routed: errors to the sender, tests and pongs to the prober")
    func routing() throws {
        var harness = try H()
        harness.seat(1)
        let socket = H.socket(1)
        #expect(harness.state.received(.streamConfig(Fixture.config), on: socket, now: t0)
            == [.send(to: socket, .error(.outOfOrder("Allow camera and microphone access first")))])
        _ = harness.state.received(.permissions(Fixture.granted), on: socket, now: t0)
        _ = harness.state.received(.streamConfig(Fixture.config), on: socket, now: t0)
        #expect(harness.state.received(.connectionTestStart, on: socket, now: t0)
            == [.startConnectionTest(H.player(1))])
        let stamp = ProbeStamp(id: 1, t: 5)
        #expect(harness.state.received(.probePong(stamp), on: socket, now: t0)
            == [.probePong(H.player(1), stamp, receivedAt: t0)])
        #expect(harness.state.received(.mute(.init(video: true, audio: true)), on: socket, now: t0)
            == [.broadcastLobby])
        #expect(harness.state.lobby.players.first?.stream.muted == .init(video: true, audio: true))
    }

    @Test("streams/start needs a seat")
    func streamNeedsSeat() throws {
        var harness = try H()
        #expect(throws: APIError.notJoined) {
            try harness.state.streamStarted(user: H.user(5), request: Fixture.streams(), now: t0)
        }
    }

    @Test("leave frees the seat at once and closes the socket with 4002")
    func leave() throws {
        var harness = try H()
        harness.seat(1)
        #expect(harness.state.received(.leave, on: H.socket(1), now: t0)
            == [.close(H.socket(1), .left), .seatFreed(H.player(1)), .broadcastLobby])
        #expect(harness.state.lobby.players == [])
        #expect(harness.state.lobbyAudience == [])
    }

    @Test("the dashboard is the host's only: welcome with the lobby alone; it sends nothing")
    func dashboard() throws {
        var harness = try H()
        let board = H.socket(50)
        #expect(harness.state.dashboardOpened(H.socket(51), user: H.user(1), now: t0)
            == [.send(to: H.socket(51), .error(.notHost)), .close(H.socket(51), .authFailed)])
        #expect(harness.state.dashboardOpened(board, user: H.host, now: t0)
            == [.send(to: board, .welcome(Welcome(lobby: harness.state.lobby)))])
        #expect(harness.state.received(.ready, on: board, now: t0) == [.send(to: board, .error(.dashboardReadOnly))])
        harness.seat(1)
        #expect(harness.state.lobbyAudience == [H.socket(1), board])
    }

    @Test("a profile change of the host or a player updates the lobby")
    func profiles() throws {
        var harness = try H()
        harness.seat(1)
        #expect(harness.state.profileUpdated(user: H.host, displayName: "Hannah", photoURL: nil, now: t0)
            == [.broadcastLobby])
        #expect(harness.state.lobby.host.name == "Hannah")
        _ = harness.state.profileUpdated(user: H.user(1), displayName: "Zed", photoURL: "/p.png", now: t0)
        #expect(harness.state.lobby.players.first?.name == "Zed")
    }

    @Test("players are listed in join order")
    func order() throws {
        var harness = try H()
        harness.seat(3)
        harness.seat(1)
        harness.seat(2)
        #expect(harness.state.lobby.players.map(\.playerId) == [H.player(3), H.player(1), H.player(2)])
    }

    @Test("closing a socket that never said hello changes nothing")
    func ungreetedClose() throws {
        var harness = try H()
        _ = try harness.state.join(user: H.user(1), displayName: "Ana", photoURL: nil, playerId: H.player(1),
                                   resumeToken: "r1", now: t0)
        _ = harness.state.socketOpened(H.socket(1), user: H.user(1), now: t0)
        #expect(harness.state.socketClosed(H.socket(1), now: t0) == [])
        #expect(harness.state.socketClosed(H.socket(1), now: t0) == [])
    }
}
