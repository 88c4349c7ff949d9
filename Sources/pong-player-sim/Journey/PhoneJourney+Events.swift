import PongWire

import Foundation

extension PhoneJourney {
    /// An HTTP reply to the pending call: its status, body and `Retry-After` seconds (if sent).
    mutating func httpReplied(status: Int, body: [UInt8], retryAfter: Double?, now: MonoTime) -> [Action] {
        guard step != .finished, let call = pendingCall else { return [] }
        guard (200..<300).contains(status) else {
            let code = Self.errorCode(in: body) ?? "http_\(status)"
            if status == 503 && Self.unavailableCodes.contains(code) {
                return unavailable(call, code: code, retryAfter: retryAfter, now: now)
            }
            // 429 (a limit) and 503 with Retry-After (server_busy: a full password or photo queue) mean "later".
            if status == 429 || (status == 503 && retryAfter != nil) {
                return [.countError(code), .schedule(.retryHTTP, at: now.adding(seconds: max(0.2, retryAfter ?? 1)))]
            }
            return [.countError(code)] + fail(.http("\(call.label) answered \(status) \(code)"))
        }
        pendingCall = nil
        httpBackoff.succeeded()
        unavailableRetries = 0
        if rejoining, case .join = call { return rejoined(body) }
        switch step {
        case .authenticating:
            guard let reply = Self.decode(AuthResponse.self, body) else { return badReply(call) }
            token = reply.token
            userId = reply.userId
            step = .profiling
            return self.call(.profile(ProfileRequest(displayName: identity.displayName, photo: identity.photo)))
        case .profiling:
            step = .joining
            return self.call(.join(code: typedCode))
        case .joining:
            guard let reply = Self.decode(JoinResponse.self, body), let token,
                  let url = SocketURL.resolve(reply.websocketURL, against: servers[server].url, token: token)
            else { return badReply(call) }
            playerId = reply.playerId
            resumeToken = reply.resumeToken
            socketURL = url
            step = .connecting
            return [.connect(url)]
        case .startingStreams:
            step = .awaitingReadiness
            audioStarted = true
            return [.startAudio]
        default:
            return []
        }
    }

    /// The pending HTTP call failed without a reply (connection refused or reset: the server may be restarting):
    /// tried again with backoff (`uniform` in [0, 1) draws the jitter), up to `maxTransportRetries` times.
    mutating func httpFailed(_ message: String, now: MonoTime, uniform: Double = 0) -> [Action] {
        guard step != .finished, let call = pendingCall else { return [] }
        if servers.count > 1 { server = (server + 1) % servers.count }  // this node is gone: ask the next one
        if rejoining { return [.countError("http_transport")] + askNextNode(now: now, uniform: uniform) }
        guard httpBackoff.attempt < maxTransportRetries else {
            return [.countError("http_transport")] + fail(.http("\(call.label): \(message)"))
        }
        let delay = httpBackoff.nextDelay(uniform: uniform)
        return [.countError("http_transport"), .schedule(.retryHTTP, at: now.adding(seconds: delay))]
    }

    /// The player socket is open (upgrade done): greet, and on the first socket walk the setup steps.
    mutating func socketOpened(now: MonoTime) -> [Action] {
        guard step != .finished else { return [.dropSocket] }
        socketOpen = true
        droppingOnPurpose = false
        if everConnected {
            var actions: [Action] = [.send(.hello(.init(resumeToken: resumeToken)))]
            if !moving { actions.append(.reconnected) }
            moving = false
            switch step {
            case .greeting:  // the setup may not have arrived: say it again (repeats change nothing)
                actions += Self.setupMessages
            case .testing:  // a test in progress died with the socket
                actions.append(.send(.connectionTestStart))
            default:
                break
            }
            if audioStarted && !stopped { actions.append(.resumeAudio) }
            return actions
        }
        everConnected = true
        step = .greeting
        return [.send(.hello(.init(resumeToken: nil)))] + Self.setupMessages
    }

    /// permissions (both granted), streamConfig (720p/30), battery (80 %, not charging).
    static let setupMessages: [Action] = [
        .send(.permissions(.init(camera: .granted, microphone: .granted))),
        .send(.streamConfig(.init(quality: .p720, fps: .fps30))),
        .send(.battery(.init(level: 80, charging: false))),
    ]

    /// The socket closed (or could not be opened); `code` and `reason` are the close frame's if one came.
    /// A retry code (4005, 4008, 4100–4199) or a drop is reconnected with backoff (`uniform` in [0, 1) draws the
    /// jitter; a 4100 waits the delay its reason hints at first); a 4100 is not an error.
    mutating func socketClosed(code: UInt16?, reason: String? = nil, now: MonoTime, uniform: Double = 0) -> [Action] {
        let wasOpen = socketOpen
        socketOpen = false
        guard step != .finished else { return [] }
        if droppingOnPurpose { return [] }  // chaos or a vanish: the reconnect timer is armed
        moving = false
        var actions: [Action] = []
        if code == CloseCode.sessionMovedCode && !stopped {
            if let follow = followMove(reason: reason) { return follow }
            actions.append(.countError(consecutiveMoves >= Self.maxConsecutiveMoves ? "moved_too_often" : "bad_move_reason"))
        }
        if let code, (4000...4099).contains(code), code != 4008, code != 4005 {
            if code == 4000 && stopped { return finish() }
            return [.countError("close_\(code)")] + fail(.socketClosed("closed with \(code)"))
        }
        if stopped { return finish() }
        // The first socket refused: with one node the journey fails; with several, the phone asks the next node
        // (the node its join named may have just died), within its ready timeout.
        guard everConnected || servers.count > 1 else {
            return fail(.socketRefused("the player socket could not be opened"))
        }
        // An unexpected drop, a restart, a close it may retry (or a failed reconnect): pause, try again.
        if wasOpen {
            if lostAt == nil { lostAt = now }
            if code == CloseCode.serverRestarting.code {
                lostToRestart = true
                actions.append(.serverRestarting)
            } else {
                actions.append(.countError(code.map { "close_\($0)" } ?? "socket_dropped"))
            }
        }
        if audioStarted { actions.append(.pauseAudio) }
        if !wasOpen && servers.count > 1 && pendingCall == nil {
            // The node refused the socket or did not answer: ask any node where the seat lives now.
            if lostAt == nil && everConnected { lostAt = now }
            return actions + askNextNode(now: now, uniform: uniform, code: code, reason: reason)
        }
        let delay = backoff.nextDelay(code: code, reason: reason, uniform: uniform)
        actions.append(.schedule(.reconnect, at: now.adding(seconds: delay)))
        return actions
    }

    /// A server message on the player socket.
    mutating func received(_ message: ServerMessage, now: MonoTime) -> [Action] {
        guard step != .finished else { return [] }
        switch message {
        case .welcome(let welcome):
            if let token = welcome.resumeToken { resumeToken = token }
            backoff.succeeded()
            consecutiveMoves = 0
            let previousNode = welcomedNode
            welcomedNode = socketURL?.node
            guard let lost = lostAt else { return [] }
            lostAt = nil
            defer { lostToRestart = false }
            let seconds = now.seconds(since: lost)
            var actions: [Action] = [.resumed(afterSeconds: seconds, restart: lostToRestart)]
            if let previousNode, previousNode != welcomedNode { actions.append(.failedOver(afterSeconds: seconds)) }
            return actions
        case .readiness(let report):
            lastReadiness = report
            return readinessChanged(now: now)
        case .probePing(let stamp):
            return [.send(.probePong(stamp))]
        case .probeUpload(let upload):
            return [.sendFiller(seconds: upload.seconds)]
        case .connectionTest(let result):
            testResult = result
            if mode == .probeOnly { return [.testResult(result)] + finish() }
            guard step == .testing else { return [.testResult(result)] }
            step = .startingStreams
            return [.testResult(result)]
                + call(.streamsStart(StreamStartRequest(sessionCode: typedCode, video: nil, audio: audio)))
        case .connectionTestFailed(let failure):
            // Counted under one code, whatever the reason, so reports add up across runs.
            var actions: [Action] = [.countError("connection_test_failed")]
            guard step == .testing else { return actions }
            if testAttempts >= maxTestAttempts {
                actions += fail(.connectionTest("\(testAttempts) connection tests failed, the last: \(failure.failure)"))
            } else {
                testAttempts += 1
                actions.append(.schedule(.retryTest, at: now.adding(seconds: 1)))
            }
            return actions
        case .error(let body):
            return [.countError(body.code)]
        case .lobby(let lobby):
            let others = Set(lobby.players.filter { $0.connection == .reconnecting && $0.playerId != playerId }
                .map(\.playerId))
            let turned = others.subtracting(othersReconnecting)
            othersReconnecting = others
            let seen: [Action] = turned.isEmpty ? [] : [.othersReconnecting(turned.sorted { $0.rawValue < $1.rawValue })]
            guard let me = lobby.players.first(where: { $0.playerId == playerId }) else { return seen }
            if me.ready && step == .readySent {
                step = .ready
                if confirmedReady { return seen }
                confirmedReady = true
                return seen + [.readyConfirmed]
            }
            if !me.ready && step == .ready && lobby.state == .waiting && socketOpen && lastReadiness?.canBeReady == true {
                step = .readySent  // a resumed seat came back not ready: say it again
                return seen + [.send(.ready)]
            }
            return seen
        case .bounce(let bounce):
            return bounce.playerId == playerId ? [.bounce(bounce)] : []
        case .sessionEnded:
            return finish()
        case .stream:
            return []
        }
    }

    /// Acts on the latest readiness: the battery ack moves setup on; `canBeReady` after the test sends `ready`.
    private mutating func readinessChanged(now: MonoTime) -> [Action] {
        guard let report = lastReadiness else { return [] }
        switch step {
        case .greeting where report.check(.battery)?.status == .ok:
            step = .testing
            testAttempts = 1
            return [.send(.connectionTestStart)]
        case .awaitingReadiness where report.canBeReady && testResult != nil:
            step = .readySent
            let elapsed = scheduledStart.map { now.seconds(since: $0) } ?? 0
            return [.send(.ready), .readySent(joinToReady: elapsed)]
        default:
            return []
        }
    }

    mutating func badReply(_ call: HTTPCall) -> [Action] {
        [.countError("unexpected_reply")] + fail(.unexpectedReply("\(call.label) answered an unexpected body"))
    }

    /// The `error.code` of an error body, if it is one.
    static func errorCode(in body: [UInt8]) -> String? {
        struct Envelope: Decodable {
            struct Inner: Decodable { var code: String }
            var error: Inner
        }
        return decode(Envelope.self, body)?.error.code
    }

    /// A JSON body, or nil (SessionHub's own decoding, nesting guard included).
    static func decode<Value: Decodable>(_ type: Value.Type, _ body: [UInt8]) -> Value? {
        try? MessageCodec.decode(type, from: body)
    }
}

extension PhoneJourney.HTTPCall {
    /// A short name for messages: `POST /auth/guest`.
    var label: String {
        switch self {
        case .guest: "POST /auth/guest"
        case .signup: "POST /auth/signup"
        case .profile: "POST /users/profile"
        case .join(let code): "POST /sessions/\(code)/join"
        case .streamsStart: "POST /streams/start"
        }
    }
}
