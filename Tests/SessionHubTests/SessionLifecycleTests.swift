import Foundation
@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Session state: host controls, grace period, resume, expiry")
struct SessionLifecycleTests {
    let t0 = Fixture.t0
    typealias H = SessionHarness

    @Test("only the host starts, and only with at least 2 ready, connected players")
    func start() throws {
        var harness = try H()
        harness.seatReady(1)
        #expect(throws: APIError.notEnoughReadyPlayers) { try harness.state.start(by: H.host, now: t0) }
        harness.seatReady(2)
        #expect(harness.state.readyPlayerCount == 2)
        #expect(throws: APIError.notHost) { try harness.state.start(by: H.user(1), now: t0) }
        #expect(try harness.state.start(by: H.host, now: t0) == [.broadcastLobby])
        #expect(harness.state.lobby.state == .playing)
        #expect(throws: APIError.gameInProgress) { try harness.state.start(by: H.host, now: t0) }
    }

    @Test("a ready player who is reconnecting does not count toward the start")
    func reconnectingNotCounted() throws {
        var harness = try H()
        harness.seatReady(1)
        harness.seatReady(2)
        _ = harness.state.socketClosed(H.socket(2), now: t0)
        #expect(throws: APIError.notEnoughReadyPlayers) { try harness.state.start(by: H.host, now: t0) }
    }

    @Test("once playing, new users cannot join but a seated user gets the seat back")
    func joinWhilePlaying() throws {
        var harness = try H()
        harness.seatReady(1)
        harness.seatReady(2)
        _ = try harness.state.start(by: H.host, now: t0)
        #expect(throws: APIError.gameInProgress) {
            try harness.state.join(user: H.user(3), displayName: nil, photoURL: nil, playerId: H.player(3),
                                   resumeToken: "r", now: t0)
        }
        let back = try harness.state.join(user: H.user(1), displayName: nil, photoURL: nil, playerId: H.player(7),
                                          resumeToken: "r", now: t0)
        #expect(back.playerId == H.player(1))
    }

    @Test("only the host ends; everyone gets the final lobby, sessionEnded and close 4000")
    func end() throws {
        var harness = try H()
        harness.seat(1)
        harness.seat(2)
        _ = harness.state.dashboardOpened(H.socket(9), user: H.host, now: t0)
        #expect(throws: APIError.notHost) { try harness.state.end(by: H.user(1), now: t0) }
        var ended = harness.state.lobby
        ended.state = .ended
        let bye = ServerMessage.sessionEnded(SessionEnded(reason: .hostEnded))
        #expect(try harness.state.end(by: H.host, now: t0) == [
            .send(to: H.socket(1), .lobby(ended)), .send(to: H.socket(1), bye),
            .send(to: H.socket(2), .lobby(ended)), .send(to: H.socket(2), bye),
            .send(to: H.socket(9), .lobby(ended)), .send(to: H.socket(9), bye),
            .close(H.socket(1), .sessionEnded), .close(H.socket(2), .sessionEnded), .close(H.socket(9), .sessionEnded),
            .discardSession,
        ])
        #expect(harness.state.phase == .ended)
        #expect(throws: APIError.sessionNotFound) { try harness.state.end(by: H.host, now: t0) }
        #expect(throws: APIError.sessionNotFound) { try harness.state.start(by: H.host, now: t0) }
        #expect(harness.state.received(.ready, on: H.socket(1), now: t0) == [])
        #expect(harness.state.tick(now: t0 + .seconds(9000)) == [])
    }

    @Test("a dropped player is reconnecting for 60 s, then the seat is freed")
    func graceExpiry() throws {
        var harness = try H()
        harness.seat(1)
        _ = harness.state.tick(now: t0 + .seconds(60))  // the join's grace timer: nothing to free
        let dropped = t0 + .seconds(100)
        #expect(harness.state.socketClosed(H.socket(1), now: dropped)
            == [.scheduleTimer(at: dropped + .seconds(60)), .broadcastLobby])
        #expect(harness.state.lobby.players.first?.connection == .reconnecting)
        #expect(harness.state.lobbyAudience == [])
        #expect(harness.state.tick(now: dropped + .seconds(59))
            == [.scheduleTimer(at: dropped + .seconds(60))])
        #expect(harness.state.tick(now: dropped + .seconds(60))
            == [.seatFreed(H.player(1)), .broadcastLobby, .scheduleTimer(at: dropped + .seconds(7200))])
        #expect(harness.state.lobby.players == [])
        #expect(harness.state.socketOpened(H.socket(2), user: H.user(1), now: dropped + .seconds(61))
            == [.send(to: H.socket(2), .error(.notJoined)), .close(H.socket(2), .notJoined)])
    }

    @Test("a seat nobody ever connects to is freed after the grace period too")
    func neverConnected() throws {
        var harness = try H()
        _ = try harness.state.join(user: H.user(1), displayName: "Ana", photoURL: nil, playerId: H.player(1),
                                   resumeToken: "r1", now: t0)
        #expect(harness.state.tick(now: t0 + .seconds(60))
            == [.seatFreed(H.player(1)), .broadcastLobby, .scheduleTimer(at: t0 + .seconds(7200))])
    }

    @Test("hello with the resume token within the grace period restores the seat as it was")
    func resume() throws {
        var harness = try H()
        harness.seatReady(1)
        _ = harness.state.socketClosed(H.socket(1), now: t0 + .seconds(10))
        let socket = H.socket(11)
        let later = t0 + .seconds(30)
        _ = harness.state.socketOpened(socket, user: H.user(1), now: later)
        let actions = harness.state.received(.hello(.init(resumeToken: H.token(1))), on: socket, now: later)
        let journey = try #require(harness.state.journey(of: H.player(1)))
        #expect(journey.phase == .ready)
        #expect(journey.connection == .connected)
        #expect(actions == [
            .send(to: socket, .welcome(Welcome(playerId: H.player(1), resumeToken: H.token(1),
                                               lobby: harness.state.lobby))),
            .send(to: socket, .readiness(journey.readiness(now: later))),
            .broadcastLobby,
        ])
        #expect(harness.state.tick(now: t0 + .seconds(70)) == [.scheduleTimer(at: later + .seconds(7200))])
        #expect(harness.state.lobby.players.count == 1)
    }

    @Test("a wrong resume token is refused with 4001 and the seat stays reconnecting")
    func wrongToken() throws {
        var harness = try H()
        harness.seat(1)
        _ = harness.state.socketClosed(H.socket(1), now: t0)
        _ = harness.state.socketOpened(H.socket(2), user: H.user(1), now: t0)
        #expect(harness.state.received(.hello(.init(resumeToken: "guess")), on: H.socket(2), now: t0)
            == [.send(to: H.socket(2), .error(.invalidResumeToken)), .close(H.socket(2), .authFailed)])
        #expect(harness.state.lobby.players.first?.connection == .reconnecting)
    }

    @Test("hello without a resume token restarts the journey on the same seat")
    func freshHello() throws {
        var harness = try H()
        harness.seatReady(1)
        _ = harness.state.socketClosed(H.socket(1), now: t0)
        _ = harness.state.socketOpened(H.socket(2), user: H.user(1), now: t0)
        _ = harness.state.received(.hello(.init()), on: H.socket(2), now: t0)
        let journey = try #require(harness.state.journey(of: H.player(1)))
        #expect(journey.phase == .profiled)
        #expect(journey.connection == .connected)
    }

    @Test("a second socket resuming the seat replaces the first, which is closed with 4004")
    func replaced() throws {
        var harness = try H()
        harness.seat(1)
        _ = harness.state.socketOpened(H.socket(2), user: H.user(1), now: t0)
        let actions = harness.state.received(.hello(.init(resumeToken: H.token(1))), on: H.socket(2), now: t0)
        #expect(actions.first == .close(H.socket(1), .replaced))
        #expect(harness.state.lobbyAudience == [H.socket(2)])
        #expect(harness.state.socketClosed(H.socket(1), now: t0) == [])
        #expect(harness.state.received(.ready, on: H.socket(1), now: t0) == [])
    }

    @Test("messages for a reconnecting player are dropped; the lobby still updates")
    func sendsWhileReconnecting() throws {
        var harness = try H()
        harness.seatReady(1)
        _ = harness.state.socketClosed(H.socket(1), now: t0)
        #expect(harness.state.mediaChanged(H.player(1), .video, to: .failed, now: t0) == [.broadcastLobby])
        #expect(harness.state.journey(of: H.player(1))?.phase == .tested)
    }

    @Test("a session with no event for 2 h ends: sessionEnded idleExpired, close 4000, discard")
    func idleExpiry() throws {
        var harness = try H()
        harness.seat(1)
        _ = harness.state.tick(now: t0 + .seconds(60))
        var ended = harness.state.lobby
        ended.state = .ended
        #expect(harness.state.tick(now: t0 + .seconds(7200)) == [
            .send(to: H.socket(1), .lobby(ended)),
            .send(to: H.socket(1), .sessionEnded(SessionEnded(reason: .idleExpired))),
            .close(H.socket(1), .sessionEnded), .discardSession,
        ])
        #expect(harness.state.phase == .ended)
    }

    @Test("activity pushes the idle deadline back; an early tick only re-arms")
    func activity() throws {
        var harness = try H()
        harness.state.activity(now: t0 + .seconds(3600))
        #expect(harness.state.tick(now: t0 + .seconds(7200)) == [.scheduleTimer(at: t0 + .seconds(10800))])
        #expect(harness.state.phase == .waiting)
    }

    @Test("a timer is only re-armed for an earlier deadline")
    func arming() throws {
        var harness = try H()
        let first = try harness.state.join(user: H.user(1), displayName: nil, photoURL: nil, playerId: H.player(1),
                                           resumeToken: "r1", now: t0)
        #expect(first.actions.contains(.scheduleTimer(at: t0 + .seconds(60))))
        let second = try harness.state.join(user: H.user(2), displayName: nil, photoURL: nil, playerId: H.player(2),
                                            resumeToken: "r2", now: t0 + .seconds(5))
        #expect(second.actions == [.broadcastLobby])
        #expect(harness.state.nextDeadline == t0 + .seconds(60))
    }
}

@Suite("Session restore after a restart")
struct SessionRestoreTests {
    private let t0 = ContinuousClock.now
    private let code = SessionCode(userInput: "ABC-234")!

    @Test("restored seats are reconnecting, keep their names, and resume with their token")
    func restore() {
        let seats = [
            SessionState.StoredSeat(playerId: PlayerID("p1"), userId: UserID("u1"), resumeToken: "r1",
                                    displayName: "Ari", photoURL: nil),
            SessionState.StoredSeat(playerId: PlayerID("p2"), userId: UserID("u2"), resumeToken: "r2",
                                    displayName: "Bea", photoURL: "/photos/x"),
        ]
        var (state, actions) = SessionState.restore(
            code: code, host: .init(userId: UserID("h"), name: "Hana"), game: GameSettings(mode: .rally, pointsToWin: .eleven),
            phase: .waiting, seats: seats, now: t0)
        #expect(actions.contains(.scheduleTimer(at: t0 + .seconds(60))))
        #expect(state.lobby.players.map(\.name) == ["Ari", "Bea"])
        #expect(state.lobby.players.allSatisfy { $0.connection == .reconnecting })
        let socket = ConnectionID(7)
        _ = state.socketOpened(socket, user: UserID("u1"), now: t0 + .seconds(1))
        let greeted = state.received(.hello(.init(resumeToken: "r1")), on: socket, now: t0 + .seconds(1))
        #expect(greeted.contains { if case .send(socket, .welcome(let w)) = $0 { w.playerId == PlayerID("p1") } else { false } })
        #expect(state.lobby.players.first?.connection == .connected)
    }

    @Test("seats nobody resumes are freed when the grace period ends")
    func graceAfterRestore() {
        let seat = SessionState.StoredSeat(playerId: PlayerID("p1"), userId: UserID("u1"), resumeToken: "r1",
                                           displayName: "Ari", photoURL: nil)
        var (state, _) = SessionState.restore(
            code: code, host: .init(userId: UserID("h"), name: "Hana"), game: GameSettings(mode: .rally, pointsToWin: .eleven),
            phase: .waiting, seats: [seat], now: t0)
        _ = state.tick(now: t0 + .seconds(61))
        #expect(state.lobby.players.isEmpty)
    }
}

@Suite("Journey snapshots across a restart")
struct JourneySnapshotTests {
    private let t0 = ContinuousClock.now
    private let wall = Date(timeIntervalSince1970: 1_800_000_000)

    /// A session whose one player ("u", player "p") said hello and granted both permissions.
    private func grantedState() throws -> SessionState {
        var state = SessionState.create(code: SessionCode(userInput: "ABC-234")!, host: .init(userId: UserID("h"), name: "H"),
                                        game: GameSettings(mode: .rally, pointsToWin: .eleven), now: t0).0
        let seat = try state.join(user: UserID("u"), displayName: "Ari", photoURL: nil, playerId: PlayerID("p"),
                                  resumeToken: "r", now: t0)
        let socket = ConnectionID(1)
        _ = state.socketOpened(socket, user: UserID("u"), now: t0)
        _ = state.received(.hello(.init(resumeToken: seat.resumeToken)), on: socket, now: t0)
        _ = state.received(.permissions(.init(camera: .granted, microphone: .granted)), on: socket, now: t0)
        return state
    }

    @Test("a journey past its stream step comes back there, with permissions, choices and its test's age")
    func roundTrip() throws {
        var state = try grantedState()
        _ = try state.streamStarted(user: UserID("u"), request: Fixture.streams(audio: false), now: t0)
        let snapshot = try #require(state.journeySnapshots(now: t0 + .seconds(5), wallNow: wall)[PlayerID("p")])
        #expect(snapshot.videoStarted && !snapshot.audioStarted && snapshot.withoutAudio)

        let later = ContinuousClock.now
        let restored = PlayerJourney(restoring: snapshot, awaitingUntil: later + .seconds(60),
                                     policy: Readiness.Policy(), now: later, wallNow: wall + 30)
        #expect(restored.phase == .streamConfigured)
        #expect(restored.permissions?.camera == .granted)
        #expect(restored.video == .starting && restored.audio == .off)
        #expect(restored.withoutAudio)
        let encoded = try JSONEncoder().encode(snapshot)
        #expect(try JSONDecoder().decode(PlayerJourney.Snapshot.self, from: encoded) == snapshot)
    }

    @Test("the streams/start body is kept: codecs and pre-skip come back; a row written before it decodes without")
    func streamRequest() throws {
        var state = try grantedState()
        let request = StreamStartRequest(sessionCode: "abc-234", video: nil,
                                         audio: .init(codec: .aac, sampleRate: 44100, channels: 2, preSkip: 1024))
        _ = try state.streamStarted(user: UserID("u"), request: request, now: t0)
        let snapshot = try #require(state.journeySnapshots(now: t0, wallNow: wall)[PlayerID("p")])
        let decoded = try JSONDecoder().decode(PlayerJourney.Snapshot.self, from: try JSONEncoder().encode(snapshot))
        let restored = PlayerJourney(restoring: decoded, awaitingUntil: t0, policy: .init(), now: t0, wallNow: wall)
        #expect(restored.streamRequest == request)
        #expect(restored.audio == .starting && restored.video == .off)

        var old = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(snapshot)) as? [String: Any])
        #expect(old.removeValue(forKey: "streamRequest") != nil)
        let legacy = try JSONDecoder().decode(PlayerJourney.Snapshot.self, from: try JSONSerialization.data(withJSONObject: old))
        #expect(PlayerJourney(restoring: legacy, awaitingUntil: t0, policy: .init(), now: t0, wallNow: wall).streamRequest == nil)
    }

    @Test("a ready journey comes back tested, and an inconsistent snapshot falls back to a valid step")
    func clamping() {
        let result = ConnectionTestResult(uploadMbps: 8, rttMs: .init(median: 20, p90: 30),
                                          rttUnderLoadMs: .init(median: 40, p90: 60), jitterMs: 3)
        let ready = PlayerJourney.Snapshot(
            phase: PlayerJourney.Phase.ready.rawValue, displayName: "Ari", photoURL: nil,
            permissions: .init(camera: .granted, microphone: .granted), streamConfig: .init(quality: .p720, fps: .fps30),
            withoutVideo: false, withoutAudio: false, videoStarted: true, audioStarted: true, muted: .init(),
            test: result, testedAt: wall, battery: nil, streamRequest: nil)
        let now = ContinuousClock.now
        #expect(PlayerJourney(restoring: ready, awaitingUntil: now, policy: .init(), now: now, wallNow: wall).phase == .tested)
        var broken = ready
        broken.permissions = nil
        #expect(PlayerJourney(restoring: broken, awaitingUntil: now, policy: .init(), now: now, wallNow: wall).phase == .profiled)
    }

    @Test("a journey stored at joined whose profile got a name (answered 200, then killed) comes back profiled")
    func nameStoredBeforeTheStep() {
        let joined = PlayerJourney.Snapshot(
            phase: PlayerJourney.Phase.joined.rawValue, displayName: "Ari", photoURL: nil, permissions: nil,
            streamConfig: nil, withoutVideo: false, withoutAudio: false, videoStarted: false, audioStarted: false,
            muted: .init(), test: nil, testedAt: nil, battery: nil, streamRequest: nil)
        let now = ContinuousClock.now
        #expect(PlayerJourney(restoring: joined, awaitingUntil: now, policy: .init(), now: now, wallNow: wall).phase == .profiled)
        var unnamed = joined
        unnamed.displayName = nil
        #expect(PlayerJourney(restoring: unnamed, awaitingUntil: now, policy: .init(), now: now, wallNow: wall).phase == .joined)
    }
}
