@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Player journey")
struct PlayerJourneyTests {
    let t0 = Fixture.t0

    private func readinessSent(_ journey: PlayerJourney) -> PlayerJourney.Action {
        .send(.readiness(journey.readiness(now: t0)))
    }

    @Test("a new seat starts joined (or profiled with a name) and reconnecting until its first hello")
    func initial() {
        let nameless = PlayerJourney(displayName: nil, photoURL: nil, awaitingUntil: t0 + .seconds(60))
        #expect(nameless.phase == .joined)
        #expect(nameless.connection == .reconnecting(until: t0 + .seconds(60)))
        #expect(PlayerJourney(displayName: "Ana", photoURL: nil, awaitingUntil: t0).phase == .profiled)
    }

    @Test("connecting sends the readiness every time, and a lobby update when it was reconnecting")
    func connecting() {
        var journey = PlayerJourney(displayName: "Ana", photoURL: nil, awaitingUntil: t0 + .seconds(60))
        #expect(journey.connected(now: t0) == [readinessSent(journey), .broadcastLobby])
        #expect(journey.connection == .connected)
        #expect(journey.connected(now: t0) == [readinessSent(journey)])
    }

    @Test("joined → profiled when the profile gets a display name")
    func profiled() {
        var journey = Fixture.journey(at: .joined)
        let actions = journey.profileUpdated(displayName: "Ana", photoURL: "/photos/u1", now: t0)
        #expect(journey.phase == .profiled)
        #expect(actions == [readinessSent(journey), .broadcastLobby])
        #expect(journey.profileUpdated(displayName: "Ana", photoURL: "/photos/u1", now: t0) == [])
    }

    @Test("profiled → permissions when camera and microphone are both answered")
    func permissions() {
        var journey = Fixture.journey(at: .profiled)
        let actions = journey.received(.permissions(Fixture.granted), now: t0)
        #expect(journey.phase == .permissions)
        #expect(actions == [readinessSent(journey)])
    }

    @Test("a pending permission keeps the player at profiled")
    func pendingPermission() {
        var journey = Fixture.journey(at: .profiled)
        _ = journey.received(.permissions(.init(camera: .pending, microphone: .granted)), now: t0)
        #expect(journey.phase == .profiled)
        #expect(journey.permissions?.microphone == .granted)
    }

    @Test("permissions → streamConfigured on streamConfig")
    func streamConfig() {
        var journey = Fixture.journey(at: .permissions)
        #expect(journey.received(.streamConfig(Fixture.config), now: t0) == [])
        #expect(journey.phase == .streamConfigured)
        #expect(journey.streamConfig == Fixture.config)
    }

    @Test("permissions → streamConfigured on streams/start too, tracks starting")
    func streamStart() throws {
        var journey = Fixture.journey(at: .permissions)
        let actions = try journey.streamStarted(video: true, audio: true, now: t0)
        #expect(journey.phase == .streamConfigured)
        #expect(journey.video == .starting && journey.audio == .starting)
        #expect(actions == [readinessSent(journey), .broadcastLobby])
    }

    @Test("streamConfigured → tested when the connection test finishes")
    func tested() {
        var journey = Fixture.journey(at: .streamConfigured)
        #expect(journey.received(.connectionTestStart, now: t0) == [.startConnectionTest])
        #expect(journey.received(.connectionTestStart, now: t0) == [.send(.error(.testInProgress))])
        let actions = journey.connectionTestCompleted(Fixture.goodTest, now: t0)
        #expect(journey.phase == .tested)
        #expect(actions == [.send(.connectionTest(Fixture.goodTest)), readinessSent(journey), .broadcastLobby])
        #expect(journey.connectionTestCompleted(Fixture.goodTest, now: t0) == [])
    }

    @Test("tested → ready when every check passes; a second ready changes nothing")
    func ready() {
        var journey = Fixture.journey(at: .tested)
        let actions = journey.received(.ready, now: t0)
        #expect(journey.phase == .ready)
        #expect(actions == [.broadcastLobby])
        #expect(journey.received(.ready, now: t0) == [])
        #expect(journey.lobbyEntry(PlayerID("p1")).ready)
    }

    @Test("ready → tested on unready; unready when not ready changes nothing")
    func unready() {
        var journey = Fixture.journey(at: .ready)
        #expect(journey.received(.unready, now: t0) == [.broadcastLobby])
        #expect(journey.phase == .tested)
        #expect(journey.received(.unready, now: t0) == [])
    }

    @Test("messages ahead of the journey get out_of_order and leave the state as it was", arguments: [
        (PlayerJourney.Phase.joined, ClientMessage.permissions(Fixture.granted), "Set your display name first"),
        (.profiled, .streamConfig(Fixture.config), "Allow camera and microphone access first"),
        (.permissions, .mute(.init(video: true, audio: false)), "Set up your stream first"),
        (.profiled, .ready, "Test your connection first"),
        (.streamConfigured, .ready, "Test your connection first"),
        (.streamConfigured, .unready, "Test your connection first"),
    ])
    func outOfOrder(phase: PlayerJourney.Phase, message: ClientMessage, text: String) {
        var journey = Fixture.journey(at: phase)
        let before = journey
        #expect(journey.received(message, now: t0) == [.send(.error(.outOfOrder(text)))])
        #expect(journey == before)
    }

    @Test("the connection test runs at any step after hello; its result is kept and completes the stream step")
    func earlyTest() {
        var journey = Fixture.journey(at: .profiled)
        #expect(journey.received(.connectionTestStart, now: t0) == [.startConnectionTest])
        _ = journey.connectionTestCompleted(Fixture.fairTest, now: t0)
        #expect(journey.phase == .profiled)
        #expect(journey.lobbyGrade == .fair)
        _ = journey.received(.permissions(Fixture.granted), now: t0)
        _ = journey.received(.streamConfig(Fixture.config), now: t0)
        #expect(journey.phase == .tested, "the test run while the user typed counts")
    }

    @Test("streams/start before the permissions step, or with no track, is refused")
    func streamStartRefused() {
        var early = Fixture.journey(at: .profiled)
        #expect(throws: APIError.outOfOrder("Allow camera and microphone access first")) {
            try early.streamStarted(video: true, audio: true, now: t0)
        }
        var none = Fixture.journey(at: .permissions)
        #expect(throws: APIError.noMedia) { try none.streamStarted(video: false, audio: false, now: t0) }
    }

    @Test("ready with a failing check answers not_ready with that check's text and stays tested")
    func notReady() {
        var journey = Fixture.journey(at: .tested)
        _ = journey.mediaChanged(.video, to: .failed, now: t0)
        #expect(journey.received(.ready, now: t0) == [.send(.error(.notReady("Unable to start video stream")))])
        #expect(journey.phase == .tested)
    }

    @Test("camera denied: video is refused, join without video works and warns, and the player can be ready")
    func cameraDenied() throws {
        var journey = Fixture.journey(at: .profiled)
        _ = journey.received(.permissions(.init(camera: .denied, microphone: .granted)), now: t0)
        #expect(journey.phase == .permissions)
        #expect(journey.readiness(now: t0).check(.camera)?.message == "Camera required for gameplay streaming")
        #expect(throws: APIError.permissionNotGranted(.video)) {
            try journey.streamStarted(video: true, audio: true, now: t0)
        }
        _ = try journey.streamStarted(video: false, audio: true, now: t0)
        #expect(journey.withoutVideo && journey.video == .off)
        #expect(journey.readiness(now: t0).check(.camera)?.status == .warn)
        _ = journey.mediaChanged(.audio, to: .live, now: t0)
        _ = journey.received(.connectionTestStart, now: t0)
        _ = journey.connectionTestCompleted(Fixture.fairTest, now: t0)
        #expect(journey.received(.ready, now: t0) == [.broadcastLobby])
        #expect(journey.lobbyEntry(PlayerID("p1")).stream.video == .off)
    }

    @Test("microphone denied: audio is refused, continue without audio works and warns")
    func microphoneDenied() throws {
        var journey = Fixture.journey(at: .profiled)
        _ = journey.received(.permissions(.init(camera: .granted, microphone: .denied)), now: t0)
        #expect(throws: APIError.permissionNotGranted(.audio)) {
            try journey.streamStarted(video: true, audio: true, now: t0)
        }
        _ = try journey.streamStarted(video: true, audio: false, now: t0)
        #expect(journey.withoutAudio && journey.audio == .off)
        #expect(journey.readiness(now: t0).check(.microphone)
            == .init(id: .microphone, status: .warn, message: "Audio detection disabled"))
    }

    @Test("a ready player whose stream fails drops back to tested")
    func autoUnready() {
        var journey = Fixture.journey(at: .ready)
        let actions = journey.mediaChanged(.video, to: .failed, now: t0)
        #expect(journey.phase == .tested)
        #expect(actions == [readinessSent(journey), .broadcastLobby])
    }

    @Test("a ready player's connection test does not go stale; after unready it does")
    func staleness() {
        var journey = Fixture.journey(at: .ready)
        let later = t0 + .seconds(600)
        #expect(journey.readiness(now: later).canBeReady)
        _ = journey.received(.unready, now: later)
        #expect(journey.readiness(now: later).check(.connection)?.status == .fail)
        #expect(journey.received(.ready, now: later) == [.send(.error(.notReady("Test your connection again")))])
    }

    @Test("battery reports change readiness; the same report sends nothing")
    func battery() {
        var journey = Fixture.journey(at: .tested)
        let low = ClientMessage.Battery(level: 10, charging: false)
        let actions = journey.received(.battery(low), now: t0)
        #expect(actions == [readinessSent(journey)])
        #expect(journey.readiness(now: t0).check(.battery)?.status == .warn)
        #expect(journey.received(.battery(low), now: t0) == [])
    }

    @Test("mute changes the lobby once; probe pongs go to the prober with their arrival time")
    func muteAndPong() {
        var journey = Fixture.journey(at: .streamConfigured)
        #expect(journey.received(.mute(.init(video: true, audio: false)), now: t0) == [.broadcastLobby])
        #expect(journey.received(.mute(.init(video: true, audio: false)), now: t0) == [])
        #expect(journey.lobbyEntry(PlayerID("p")).stream.muted == .init(video: true, audio: false))
        let stamp = ProbeStamp(id: 4, t: 1000)
        #expect(journey.received(.probePong(stamp), now: t0) == [.forwardProbePong(stamp, receivedAt: t0)])
    }

    @Test("a track changing to the state it has sends nothing")
    func sameMediaState() {
        var journey = Fixture.journey(at: .tested)
        #expect(journey.mediaChanged(.audio, to: .live, now: t0) == [])
    }

    @Test("a failed connection test is reported and can be retried")
    func testFailed() {
        var journey = Fixture.journey(at: .streamConfigured)
        _ = journey.received(.connectionTestStart, now: t0)
        let failure = ConnectionTestFailure(failure: "no_filler")
        #expect(journey.connectionTestFailed(failure, now: t0) == [.send(.connectionTestFailed(failure))])
        #expect(journey.connectionTestFailed(failure, now: t0) == [])
        #expect(journey.received(.connectionTestStart, now: t0) == [.startConnectionTest])
    }

    @Test("audio.preSkip goes to the audio ingest once a stream has audio; before, stream_not_started")
    func audioPreSkip() {
        var early = Fixture.journey(at: .permissions)
        #expect(early.received(.audioPreSkip(.init(preSkip: 312)), now: t0) == [.send(.error(.streamNotStarted))])
        var streaming = Fixture.journey(at: .streamConfigured)
        #expect(streaming.received(.audioPreSkip(.init(preSkip: 312)), now: t0) == [.setAudioPreSkip(312)])
    }

    @Test("a test cut short by a dropped socket is reported as interrupted on the next hello, once")
    func interruptedTest() {
        var journey = Fixture.journey(at: .streamConfigured)
        _ = journey.received(.connectionTestStart, now: t0)
        _ = journey.disconnected(now: t0, grace: .seconds(60))
        let back = journey.connected(now: t0 + .seconds(1))
        #expect(back.first == .send(.connectionTestFailed(.interrupted)))
        _ = journey.disconnected(now: t0 + .seconds(2), grace: .seconds(60))
        #expect(!journey.connected(now: t0 + .seconds(3)).contains(.send(.connectionTestFailed(.interrupted))))
    }

    @Test("a dropped socket: reconnecting for the grace period, running test cancelled, expired at the deadline")
    func disconnect() {
        var journey = Fixture.journey(at: .streamConfigured)
        _ = journey.received(.connectionTestStart, now: t0)
        let actions = journey.disconnected(now: t0, grace: .seconds(60))
        #expect(actions == [.cancelConnectionTest, .scheduleTimer(at: t0 + .seconds(60)), .broadcastLobby])
        #expect(journey.connection == .reconnecting(until: t0 + .seconds(60)))
        #expect(journey.lobbyEntry(PlayerID("p")).connection == .reconnecting)
        #expect(!journey.graceExpired(now: t0 + .seconds(59)))
        #expect(journey.graceExpired(now: t0 + .seconds(60)))
        #expect(journey.phase == .streamConfigured)
    }

    @Test("resuming keeps the journey where it was")
    func resume() {
        var journey = Fixture.journey(at: .ready)
        _ = journey.disconnected(now: t0, grace: .seconds(60))
        #expect(journey.connected(now: t0 + .seconds(5)) == [
            .send(.readiness(journey.readiness(now: t0 + .seconds(5)))), .broadcastLobby,
        ])
        #expect(journey.phase == .ready)
        #expect(journey.isReadyAndConnected)
    }

    @Test("a restart keeps profile and connection and resets everything else")
    func restart() {
        let journey = Fixture.journey(at: .ready)
        let fresh = journey.restarted()
        #expect(fresh.phase == .profiled)
        #expect(fresh.displayName == "Ana")
        #expect(fresh.connection == .connected)
        #expect(fresh.connectionTest == nil && fresh.video == .off && fresh.permissions == nil)
    }

    @Test("the lobby entry mirrors the journey")
    func lobbyEntry() {
        let entry = Fixture.journey(at: .ready).lobbyEntry(PlayerID("p1"))
        #expect(entry == LobbySnapshot.Player(
            playerId: PlayerID("p1"), name: "Ana", photoURL: nil, connection: .connected, ready: true,
            stream: .init(video: .live, audio: .live, muted: .init()), grade: .good))
    }
}
