import Foundation
import PongWire
import Testing
@testable import pong_player_sim

/// Walks a phone through the journey with made-up replies, messages and instants.
@Suite("PhoneJourney")
struct PhoneJourneyTests {
    static let audio = StreamStartRequest.Audio(codec: .opus, sampleRate: 48000, channels: 1, preSkip: 312)

    static func journey(index: Int = 0, mode: PhoneJourney.Mode = .play) -> PhoneJourney {
        PhoneJourney(identity: PhoneIdentity.make(index: index, runTag: "t"), typedCode: "abc-234",
                     audio: mode == .play ? audio : nil, mode: mode)
    }

    static func body(_ json: String) -> [UInt8] { Array(json.utf8) }

    /// Opening the socket at `path` on the default server.
    static func connect(_ path: String) -> PhoneJourney.Action {
        .connect(SocketURL(secure: false, host: "127.0.0.1", port: 8080, path: path))
    }

    static func readiness(battery: CheckStatus, canBeReady: Bool) -> ServerMessage {
        var checks: [ReadinessReport.Check] = [
            .init(id: .profile, status: .ok, message: "Profile ready"),
            .init(id: .battery, status: battery, message: "Battery"),
        ]
        if !canBeReady { checks.append(.init(id: .connection, status: .fail, message: "Test your connection")) }
        return .readiness(ReadinessReport(checks: checks))
    }

    static let testResult = ConnectionTestResult(
        uploadMbps: 40, rttMs: .init(median: 1, p90: 2), rttUnderLoadMs: .init(median: 3, p90: 4), jitterMs: 0.5)

    static func lobby(_ player: String, ready: Bool) -> ServerMessage {
        .lobby(lobbySnapshot(player, ready: ready))
    }

    static func lobbySnapshot(_ player: String = "p1", ready: Bool = true) -> LobbySnapshot {
        LobbySnapshot(
            code: "ABC234", displayCode: "ABC-234", state: .waiting, host: .init(name: "Host"),
            game: GameSettings(mode: .rally, pointsToWin: .eleven, serveRule: .standard),
            players: [.init(playerId: PlayerID(player), name: "Sim 0", photoURL: nil, connection: .connected,
                            ready: ready, stream: .init(video: .off, audio: .live,
                                                        muted: .init(video: false, audio: false)),
                            grade: .good)])
    }

    /// Drives `journey` to the point where `ready` was sent; returns the actions of each step.
    static func walkToReady(_ journey: inout PhoneJourney, websocketURL: String = "/sessions/ABC234/player/u1")
        -> [[PhoneJourney.Action]]
    {
        var steps: [[PhoneJourney.Action]] = []
        steps.append(journey.start(scheduledStart: .seconds(10)))
        steps.append(journey.httpReplied(status: 201, body: body(#"{"userId":"u1","token":"tok","guest":true}"#),
                                         retryAfter: nil, now: .seconds(10.1)))
        steps.append(journey.httpReplied(status: 200, body: body(
            #"{"userId":"u1","displayName":"Sim 0","photoURL":"/photos/x","guest":true}"#),
                                         retryAfter: nil, now: .seconds(10.2)))
        steps.append(journey.httpReplied(status: 200, body: body(
            #"{"playerId":"p1","websocketURL":"\#(websocketURL)","resumeToken":"r1"}"#),
                                         retryAfter: nil, now: .seconds(10.3)))
        steps.append(journey.socketOpened(now: .seconds(10.4)))
        steps.append(journey.received(readiness(battery: .warn, canBeReady: false), now: .seconds(10.5)))
        steps.append(journey.received(readiness(battery: .ok, canBeReady: false), now: .seconds(10.6)))
        steps.append(journey.received(.probePing(ProbeStamp(id: 1, t: 99)), now: .seconds(10.8)))
        steps.append(journey.received(.probeUpload(ProbeUpload(seconds: 2)), now: .seconds(11.6)))
        steps.append(journey.received(.connectionTest(testResult), now: .seconds(13.7)))
        steps.append(journey.httpReplied(status: 200, body: body(#"{"streamId":"s1"}"#), retryAfter: nil,
                                         now: .seconds(13.8)))
        steps.append(journey.received(readiness(battery: .ok, canBeReady: true), now: .seconds(13.9)))
        return steps
    }

    @Test("a guest walks guest → profile → join → socket → setup → test → streams/start → audio → ready")
    func wholeJourney() {
        var journey = Self.journey()
        let steps = Self.walkToReady(&journey)
        #expect(steps[0] == [.http(.guest, token: nil)])
        #expect(steps[1] == [.http(.profile(ProfileRequest(displayName: "Sim 0", photo: PhoneIdentity.tinyPNG)),
                                   token: "tok")])
        #expect(steps[2] == [.http(.join(code: "abc-234"), token: "tok")])
        #expect(steps[3] == [Self.connect("/sessions/ABC234/player/u1?token=tok")])
        #expect(steps[4] == [
            .send(.hello(.init(resumeToken: nil))),
            .send(.permissions(.init(camera: .granted, microphone: .granted))),
            .send(.streamConfig(.init(quality: .p720, fps: .fps30))),
            .send(.battery(.init(level: 80, charging: false))),
        ])
        #expect(steps[5] == [], "the readiness right after welcome does not move the journey on")
        #expect(steps[6] == [.send(.connectionTestStart)])
        #expect(steps[7] == [.send(.probePong(ProbeStamp(id: 1, t: 99)))])
        #expect(steps[8] == [.sendFiller(seconds: 2)])
        #expect(steps[9] == [.testResult(Self.testResult),
                             .http(.streamsStart(StreamStartRequest(sessionCode: "abc-234", video: nil,
                                                                    audio: Self.audio)), token: "tok")])
        #expect(steps[10] == [.startAudio])
        #expect(steps[11] == [.send(.ready), .readySent(joinToReady: 3.9)])
        #expect(journey.step == .readySent)
        #expect(journey.received(Self.lobby("p1", ready: true), now: .seconds(14)) == [.readyConfirmed])
        #expect(journey.step == .ready)
    }

    /// A fresh journey walked (all at `now`) to its open socket with setup confirmed: the connection test is running.
    static func testing(at now: Double) -> PhoneJourney {
        var journey = Self.journey()
        _ = journey.start(scheduledStart: .seconds(0))
        _ = journey.httpReplied(status: 201, body: body(#"{"userId":"u","token":"t"}"#), retryAfter: nil, now: .seconds(0))
        _ = journey.httpReplied(status: 200, body: body(#"{"userId":"u","displayName":"a","photoURL":null,"guest":true}"#),
                                retryAfter: nil, now: .seconds(0))
        _ = journey.httpReplied(status: 200, body: body(#"{"playerId":"p","websocketURL":"/w","resumeToken":"r"}"#),
                                retryAfter: nil, now: .seconds(0))
        _ = journey.socketOpened(now: .seconds(now))
        _ = journey.received(readiness(battery: .ok, canBeReady: false), now: .seconds(now))
        return journey
    }

    @Test("ready waits for the audio: a readiness before streams/start answered does not send it")
    func readyWaitsForAudio() {
        var journey = Self.testing(at: 1)
        _ = journey.received(.connectionTest(Self.testResult), now: .seconds(4))
        #expect(journey.received(Self.readiness(battery: .ok, canBeReady: true), now: .seconds(4.1)) == [])
        #expect(journey.httpReplied(status: 200, body: Self.body(#"{"streamId":"s"}"#), retryAfter: nil,
                                    now: .seconds(4.2)) == [.startAudio])
        #expect(journey.received(Self.readiness(battery: .ok, canBeReady: true), now: .seconds(4.5))
                == [.send(.ready), .readySent(joinToReady: 4.5)])
    }

    @Test("a 429 waits Retry-After and repeats the call; other HTTP errors end the journey")
    func rateLimited() {
        var journey = Self.journey()
        _ = journey.start(scheduledStart: .seconds(0))
        _ = journey.httpReplied(status: 201, body: Self.body(#"{"userId":"u","token":"t"}"#), retryAfter: nil,
                                now: .seconds(0))
        _ = journey.httpReplied(status: 200, body: Self.body(#"{"userId":"u","displayName":"a","photoURL":null,"guest":true}"#),
                                retryAfter: nil, now: .seconds(0))
        let limited = journey.httpReplied(
            status: 429, body: Self.body(#"{"error":{"code":"too_many_attempts","message":"Wait"}}"#),
            retryAfter: 6, now: .seconds(1))
        #expect(limited == [.countError("too_many_attempts"), .schedule(.retryHTTP, at: .seconds(7))])
        #expect(journey.timer(.retryHTTP, now: .seconds(7)) == [.http(.join(code: "abc-234"), token: "t")])
        let notFound = journey.httpReplied(
            status: 404, body: Self.body(#"{"error":{"code":"session_not_found","message":"Gone"}}"#),
            retryAfter: nil, now: .seconds(8))
        #expect(notFound.first == .countError("session_not_found"))
        #expect(journey.step == .finished)
    }

    @Test("a 503 server_busy with Retry-After is waited out like a 429")
    func busy() {
        var journey = Self.journey(index: 9)
        _ = journey.start(scheduledStart: .seconds(0))
        let busy = journey.httpReplied(
            status: 503, body: Self.body(#"{"error":{"code":"server_busy","message":"Busy"}}"#), retryAfter: 1,
            now: .seconds(2))
        #expect(busy == [.countError("server_busy"), .schedule(.retryHTTP, at: .seconds(3))])
        #expect(journey.step != .finished)
    }

    @Test("every tenth phone signs up with a fresh email; the others are guests")
    func signupMix() {
        var guest = Self.journey(index: 3)
        #expect(guest.start(scheduledStart: .seconds(0)) == [.http(.guest, token: nil)])
        var member = Self.journey(index: 9)
        guard case .http(.signup(let form), nil)? = member.start(scheduledStart: .seconds(0)).first else {
            Issue.record("no signup")
            return
        }
        #expect(form.email == "sim-t-9@example.com" && form.acceptTerms && form.password.count >= 10)
    }

    @Test("a chaos drop pauses audio, drops the socket, reconnects with the resume token and resumes")
    func chaosDrop() {
        var journey = Self.journey()
        _ = Self.walkToReady(&journey)
        let drop = journey.chaosDrop(now: .seconds(20), downFor: 1.5)
        #expect(drop == [.pauseAudio, .dropSocket, .schedule(.reconnect, at: .seconds(21.5))])
        #expect(journey.socketClosed(code: nil, now: .seconds(20)) == [], "our own drop is not an error")
        #expect(journey.timer(.reconnect, now: .seconds(21.5)) == [Self.connect("/sessions/ABC234/player/u1?token=tok")])
        #expect(journey.socketOpened(now: .seconds(21.6))
                == [.send(.hello(.init(resumeToken: "r1"))), .reconnected, .resumeAudio])
    }

    @Test("an unexpected drop is counted and reconnected; a final close code ends the journey")
    func unexpectedDrop() {
        var journey = Self.journey()
        _ = Self.walkToReady(&journey)
        #expect(journey.socketClosed(code: nil, now: .seconds(30))
                == [.countError("socket_dropped"), .pauseAudio, .schedule(.reconnect, at: .seconds(30.25))])
        _ = journey.timer(.reconnect, now: .seconds(30.25))
        _ = journey.socketOpened(now: .seconds(31.1))
        let closed = journey.socketClosed(code: 4003, now: .seconds(32))
        #expect(closed.first == .countError("close_4003"))
        #expect(journey.step == .finished)
    }

    @Test("a drop during the connection test starts another test on the new socket")
    func dropDuringTest() {
        var journey = Self.journey()
        _ = journey.start(scheduledStart: .seconds(0))
        _ = journey.httpReplied(status: 201, body: Self.body(#"{"userId":"u","token":"t"}"#), retryAfter: nil, now: .seconds(0))
        _ = journey.httpReplied(status: 200, body: Self.body(#"{"userId":"u","displayName":"a","photoURL":null,"guest":true}"#),
                                retryAfter: nil, now: .seconds(0))
        _ = journey.httpReplied(status: 200, body: Self.body(#"{"playerId":"p","websocketURL":"/w","resumeToken":"r"}"#),
                                retryAfter: nil, now: .seconds(0))
        _ = journey.socketOpened(now: .seconds(0))
        _ = journey.received(Self.readiness(battery: .ok, canBeReady: false), now: .seconds(0))
        #expect(journey.step == .testing)
        #expect(journey.socketClosed(code: 1006, now: .seconds(1))
                == [.countError("close_1006"), .schedule(.reconnect, at: .seconds(1.25))])
        _ = journey.timer(.reconnect, now: .seconds(2))
        #expect(journey.socketOpened(now: .seconds(2.1))
                == [.send(.hello(.init(resumeToken: "r"))), .reconnected, .send(.connectionTestStart)])
    }

    @Test("a 4100 is no error: reconnect after its hinted delay, backing off while the server is down; resume is timed")
    func serverRestart() {
        var journey = Self.journey()
        _ = Self.walkToReady(&journey)
        #expect(journey.socketClosed(code: 4100, reason: "server restarting; retry in 1 s", now: .seconds(30))
                == [.serverRestarting, .pauseAudio, .schedule(.reconnect, at: .seconds(31))])
        #expect(journey.timer(.reconnect, now: .seconds(31)) == [Self.connect("/sessions/ABC234/player/u1?token=tok")])
        // The new process is not up yet: the attempt fails, the next waits twice as long.
        #expect(journey.socketClosed(code: nil, now: .seconds(31)) == [.pauseAudio, .schedule(.reconnect, at: .seconds(33))])
        _ = journey.timer(.reconnect, now: .seconds(33))
        #expect(journey.socketOpened(now: .seconds(33.1))
                == [.send(.hello(.init(resumeToken: "r1"))), .reconnected, .resumeAudio])
        let welcome = ServerMessage.welcome(Welcome(playerId: PlayerID("p1"), resumeToken: "r1", lobby: Self.lobbySnapshot()))
        #expect(journey.received(welcome, now: .seconds(33.5)) == [.resumed(afterSeconds: 3.5, restart: true)])
        // The backoff started over: the next drop waits 0.25 s.
        #expect(journey.socketClosed(code: nil, now: .seconds(40)).last == .schedule(.reconnect, at: .seconds(40.25)))
    }

    @Test("a 4005 (hello too late, e.g. on a stalled phone) is reconnected, not final")
    func helloTimeoutRetried() {
        var journey = Self.journey()
        _ = Self.walkToReady(&journey)
        #expect(journey.socketClosed(code: 4005, now: .seconds(30))
                == [.countError("close_4005"), .pauseAudio, .schedule(.reconnect, at: .seconds(30.25))])
        #expect(journey.step != .finished)
    }

    @Test("a vanished phone stops reading and sending, keeps its socket, then reappears on a new one")
    func vanish() {
        var journey = Self.journey()
        _ = Self.walkToReady(&journey)
        #expect(journey.vanish(now: .seconds(20), downFor: 15)
                == [.pauseAudio, .stopReading, .vanished, .schedule(.reappear, at: .seconds(35))])
        #expect(journey.timer(.reappear, now: .seconds(35))
                == [.dropSocket, Self.connect("/sessions/ABC234/player/u1?token=tok")])
        #expect(journey.socketOpened(now: .seconds(35.1))
                == [.send(.hello(.init(resumeToken: "r1"))), .reconnected, .resumeAudio])
    }

    @Test("a lobby reports the other players that just turned reconnecting, once")
    func othersReconnecting() {
        var journey = Self.journey()
        _ = Self.walkToReady(&journey)
        var lobby = Self.lobbySnapshot(ready: false)
        var other = lobby.players[0]
        other.playerId = PlayerID("p2")
        other.connection = .reconnecting
        lobby.players.append(other)
        #expect(journey.received(.lobby(lobby), now: .seconds(20)) == [.othersReconnecting([PlayerID("p2")])])
        #expect(journey.received(.lobby(lobby), now: .seconds(21)) == [])
    }

    @Test("an HTTP call without a reply (server restarting) is retried with backoff, then fails")
    func transportRetries() {
        var journey = Self.journey()
        _ = journey.start(scheduledStart: .seconds(0))
        journey.maxTransportRetries = 2
        #expect(journey.httpFailed("refused", now: .seconds(1)) == [.countError("http_transport"), .schedule(.retryHTTP, at: .seconds(1.25))])
        #expect(journey.timer(.retryHTTP, now: .seconds(1.25)) == [.http(.guest, token: nil)])
        #expect(journey.httpFailed("refused", now: .seconds(2)) == [.countError("http_transport"), .schedule(.retryHTTP, at: .seconds(2.5))])
        #expect(journey.httpFailed("refused", now: .seconds(3)).last == .finished(.http("POST /auth/guest: refused")))
    }

    @Test("after stop, the session's end (sessionEnded, close 4000) finishes the journey without errors")
    func cleanEnd() {
        var journey = Self.journey()
        _ = Self.walkToReady(&journey)
        #expect(journey.stop() == [.pauseAudio])
        #expect(journey.received(.sessionEnded(SessionEnded(reason: .hostEnded)), now: .seconds(40))
                == [.pauseAudio, .finished(nil)])
        #expect(journey.socketClosed(code: 4000, now: .seconds(40)) == [])
    }

    @Test("only the phone's own bounces are reported")
    func ownBounces() {
        var journey = Self.journey()
        _ = Self.walkToReady(&journey)
        let mine = Bounce(playerId: PlayerID("p1"), streamTime: 1.5, captureTime: 1000, kind: .table, confidence: 0.9)
        let theirs = Bounce(playerId: PlayerID("p2"), streamTime: 1.5, captureTime: 1000, kind: .table, confidence: 1)
        #expect(journey.received(.bounce(mine), now: .seconds(15)) == [.bounce(mine)])
        #expect(journey.received(.bounce(theirs), now: .seconds(15)) == [])
    }

    @Test("a failed connection test is retried, then gives up after three")
    func testRetries() {
        var journey = Self.testing(at: 0)
        let failed = ServerMessage.connectionTestFailed(ConnectionTestFailure(failure: "too_few_pongs"))
        #expect(journey.received(failed, now: .seconds(3))
                == [.countError("connection_test_failed"), .schedule(.retryTest, at: .seconds(4))])
        #expect(journey.timer(.retryTest, now: .seconds(4)) == [.send(.connectionTestStart)])
        _ = journey.received(failed, now: .seconds(7))
        let last = journey.received(failed, now: .seconds(10))
        #expect(last.contains(.finished(.connectionTest("3 connection tests failed, the last: too_few_pongs"))))
    }

    @Test("probe mode skips streams/start and ends at the test result")
    func probeOnly() {
        var journey = Self.journey(mode: .probeOnly)
        _ = journey.start(scheduledStart: .seconds(0))
        _ = journey.httpReplied(status: 201, body: Self.body(#"{"userId":"u","token":"t"}"#), retryAfter: nil, now: .seconds(0))
        _ = journey.httpReplied(status: 200, body: Self.body(#"{"userId":"u","displayName":"a","photoURL":null,"guest":true}"#),
                                retryAfter: nil, now: .seconds(0))
        _ = journey.httpReplied(status: 200, body: Self.body(#"{"playerId":"p","websocketURL":"/w","resumeToken":"r"}"#),
                                retryAfter: nil, now: .seconds(0))
        _ = journey.socketOpened(now: .seconds(0))
        #expect(journey.received(Self.readiness(battery: .ok, canBeReady: false), now: .seconds(0))
                == [.send(.connectionTestStart)])
        #expect(journey.received(.connectionTest(Self.testResult), now: .seconds(3))
                == [.testResult(Self.testResult), .finished(nil)])
    }

    @Test("streams/start is sent with explicit nulls for the missing video")
    func streamsStartBody() {
        let call = PhoneJourney.HTTPCall.streamsStart(StreamStartRequest(sessionCode: "abc-234", video: nil,
                                                                         audio: Self.audio))
        #expect(call.request.json
                == #"{"audio":{"channels":1,"codec":"opus","preSkip":312,"sampleRate":48000},"sessionCode":"abc-234","video":null}"#)
        #expect(call.request.path == "/streams/start")
    }
}
