import PongWire

extension PlayerJourney {
    /// A journey message from the player's socket. `hello` and `leave` belong to `SessionState` and do nothing here.
    package mutating func received(_ message: ClientMessage, now: ContinuousClock.Instant) -> [Action] {
        switch message {
        case .hello, .leave:
            return []
        case .permissions(let report):
            guard phase >= .profiled else { return outOfOrder("Set your display name first") }
            permissions = report
            if phase == .profiled, report.camera != .pending, report.microphone != .pending { phase = .permissions }
            return settle(now: now)
        case .streamConfig(let config):
            guard phase >= .permissions else { return outOfOrder("Allow camera and microphone access first") }
            streamConfig = config
            // A test that already finished (run in the background while the user set up) counts for the step.
            if phase == .permissions { phase = connectionTest == nil ? .streamConfigured : .tested }
            return settle(now: now)
        case .battery(let report):
            battery = report
            return settle(now: now)
        case .connectionTestStart:
            // At any step after hello: a phone may test its link while the user types a name.
            guard !testRunning else { return [.send(.error(.testInProgress))] }
            testRunning = true
            return [.startConnectionTest]
        case .probePong(let stamp):
            return [.forwardProbePong(stamp, receivedAt: now)]
        case .ready:
            return ready(now: now)
        case .unready:
            guard phase >= .tested else { return outOfOrder("Test your connection first") }
            guard phase == .ready else { return [] }
            phase = .tested
            return settle(now: now, lobbyChanged: true)
        case .mute(let mute):
            guard phase >= .streamConfigured else { return outOfOrder("Set up your stream first") }
            let changed = muted != LobbySnapshot.Muted(video: mute.video, audio: mute.audio)
            muted = LobbySnapshot.Muted(video: mute.video, audio: mute.audio)
            return settle(now: now, lobbyChanged: changed)
        case .audioPreSkip(let delay):
            // The track exists from `POST /streams/start` with audio until the seat goes: `off` means none.
            guard audio != .off else { return [.send(.error(.streamNotStarted))] }
            return [.setAudioPreSkip(delay.preSkip)]
        }
    }

    private mutating func ready(now: ContinuousClock.Instant) -> [Action] {
        guard phase >= .tested else { return outOfOrder("Test your connection first") }
        guard phase != .ready else { return [] }
        let report = readiness(now: now)
        if let failing = report.checks.first(where: { $0.status == .fail }) {
            return [.send(.error(.notReady(failing.message)))] + settle(now: now)
        }
        phase = .ready
        return settle(now: now, lobbyChanged: true)
    }

    /// The profile changed (`POST /users/profile`); a first display name completes the `profiled` step.
    package mutating func profileUpdated(displayName: String?, photoURL: String?,
                                         now: ContinuousClock.Instant) -> [Action] {
        let changed = displayName != self.displayName || photoURL != self.photoURL
        self.displayName = displayName
        self.photoURL = photoURL
        if phase == .joined, displayName.map({ !$0.isEmpty }) == true { phase = .profiled }
        return settle(now: now, lobbyChanged: changed)
    }

    /// `POST /streams/start`: `video`/`audio` false are "join without video"/"continue without audio".
    ///
    /// Needs the permissions step, at least one track, and a granted permission for each track asked for.
    /// Calling it again restarts the stream (e.g. "Join Without Video" after a failed stream).
    package mutating func streamStarted(video: Bool, audio: Bool,
                                        now: ContinuousClock.Instant) throws(APIError) -> [Action] {
        guard phase >= .permissions else { throw .outOfOrder("Allow camera and microphone access first") }
        guard video || audio else { throw .noMedia }
        if video, permissions?.camera != .granted { throw .permissionNotGranted(.video) }
        if audio, permissions?.microphone != .granted { throw .permissionNotGranted(.audio) }
        withoutVideo = !video
        withoutAudio = !audio
        streamGrade = nil
        self.video = video ? .starting : .off
        self.audio = audio ? .starting : .off
        if phase == .permissions { phase = .streamConfigured }
        return settle(now: now, lobbyChanged: true)
    }

    /// `POST /streams/start` with its body: the tracks it asks for start, and the body is kept with the journey (a
    /// restart reopens the tracks' decoders from it).
    package mutating func streamStarted(_ request: StreamStartRequest,
                                        now: ContinuousClock.Instant) throws(APIError) -> [Action] {
        let actions = try streamStarted(video: request.video != nil, audio: request.audio != nil, now: now)
        streamRequest = request
        return actions
    }

    /// The ingest saw a track change state (a failed stream that sends again becomes live again).
    package mutating func mediaChanged(_ kind: MediaKind, to state: MediaState,
                                       now: ContinuousClock.Instant) -> [Action] {
        switch kind {
        case .video:
            guard video != state else { return [] }
            video = state
        case .audio:
            guard audio != state else { return [] }
            audio = state
        }
        return settle(now: now, lobbyChanged: true)
    }

    /// The stream monitor graded the media upload rate: the lobby's grade follows when it changes.
    package mutating func mediaRateGraded(_ grade: ConnectionGrade?) -> [Action] {
        let before = lobbyGrade
        streamGrade = grade
        return lobbyGrade == before ? [] : [.broadcastLobby]
    }

    /// The prober finished the running test: the result goes to the player and is kept for the later steps; the
    /// first one completes `tested` (at once when the stream is configured, else when it is).
    /// A result with no test running (cancelled meanwhile) is dropped.
    package mutating func connectionTestCompleted(_ result: ConnectionTestResult,
                                                  now: ContinuousClock.Instant) -> [Action] {
        guard testRunning else { return [] }
        testRunning = false
        let gradeChanged = connectionTest?.result.grade != result.grade
        connectionTest = MeasuredTest(result: result, at: now)
        if phase == .streamConfigured { phase = .tested }
        return [.send(.connectionTest(result))] + settle(now: now, lobbyChanged: gradeChanged)
    }

    /// The prober gave up on the running test: the phone gets `connectionTest {failure}`.
    package mutating func connectionTestFailed(_ failure: ConnectionTestFailure,
                                               now: ContinuousClock.Instant) -> [Action] {
        guard testRunning else { return [] }
        testRunning = false
        return [.send(.connectionTestFailed(failure))]
    }

    /// The player's socket dropped: keep the seat until `now + grace`.
    package mutating func disconnected(now: ContinuousClock.Instant, grace: Duration) -> [Action] {
        connection = .reconnecting(until: now + grace)
        var actions: [Action] = []
        if testRunning {
            testRunning = false
            testInterrupted = true
            actions.append(.cancelConnectionTest)
        }
        return actions + [.scheduleTimer(at: now + grace), .broadcastLobby]
    }

    /// A socket said hello for this seat: connected again; the current readiness is always sent.
    package mutating func connected(now: ContinuousClock.Instant) -> [Action] {
        let wasReconnecting = connection != .connected
        connection = .connected
        let report = readiness(now: now)
        lastReadiness = report
        // A test the drop cut short ends here, so the phone is never left waiting for its result.
        let interrupted: [Action] = testInterrupted ? [.send(.connectionTestFailed(.interrupted))] : []
        testInterrupted = false
        return interrupted + [.send(.readiness(report))] + (wasReconnecting ? [.broadcastLobby] : [])
    }

    private func outOfOrder(_ message: String) -> [Action] {
        [.send(.error(.outOfOrder(message)))]
    }

    /// After any change: drop a ready player whose readiness fails, send readiness if it changed, and broadcast
    /// the lobby if `lobbyChanged` (or the drop happened).
    private mutating func settle(now: ContinuousClock.Instant, lobbyChanged: Bool = false) -> [Action] {
        var lobby = lobbyChanged
        if phase == .ready, !readiness(now: now).canBeReady {
            phase = .tested
            lobby = true
        }
        var actions: [Action] = []
        let report = readiness(now: now)
        if report != lastReadiness {
            lastReadiness = report
            actions.append(.send(.readiness(report)))
        }
        if lobby { actions.append(.broadcastLobby) }
        return actions
    }
}
