import Foundation
import PongWire

/// Creating sessions, the lobby, joins, host controls and stream start.
extension HubRouter {
    func createSession(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let token = try caller(request, allowing: [.user, .guest])
        let settings = try body(CreateSessionRequest.self, of: request).settings
        if let cluster = hub.cluster, !cluster.storeReachable { return .error(.storeUnavailable, retryAfter: 2) }
        // The live-session limit first: a user at it does not use up its creation budget by retrying.
        let reserved = try reserveCode(host: token.userId)
        if let wait = hub.quotas.admitSessionCreation(user: token.userId) {
            hub.quotas.userSessions.withLockedValue { $0.remove(reserved) }
            hub.logger.info("session creation limited", metadata: ["user.id": "\(token.userId)"])
            return .error(.tooManyNewSessions, retryAfter: wait)
        }
        let hostName: String
        let code: SessionCode
        do throws(StoreError) {
            let profileName = try hub.store.profile(userId: token.userId)?.displayName
            // A purged guest's token (its user is gone) is no longer valid.
            guard let accountName = try hub.store.user(id: token.userId)?.name else { throw StoreError.notFound }
            hostName = profileName ?? accountName
        } catch {
            hub.quotas.userSessions.withLockedValue { $0.remove(reserved) }
            throw error == .notFound ? .invalidToken : storeFailure(error)
        }
        do throws(StoreError) {
            code = try storeNewSession(reserved, host: token.userId, settings: settings)
        } catch {
            throw error == .notFound ? .invalidToken : storeFailure(error)  // it released every code it drew
        }
        let (state, actions) = SessionState.create(
            code: code, host: SessionState.Host(userId: token.userId, name: hostName), game: settings, now: .now,
            configuration: hub.configuration.session)
        _ = hub.adopt(state, initialActions: actions)
        hub.logger.info("session created", metadata: ["session.code": "\(code)", "user.id": "\(token.userId)"])
        return try json(201, CreateSessionResponse(
            code: code.value, displayCode: code.displayCode, joinURL: hub.joinURL(for: code),
            hostToken: issue(token.userId, .host)))
    }

    /// Stores the new session under its reserved `code`, drawing another code (up to 3 times) when another node
    /// stored one with it first: the store's key is the only judge across nodes. The code stored; on an error, no
    /// code reserved here (`code` included) stays reserved.
    private func storeNewSession(_ code: SessionCode, host: UserID, settings: GameSettings) throws(StoreError)
        -> SessionCode
    {
        var code = code
        for attempt in 1...4 {
            do throws(StoreError) {
                try hub.store.createSession(StoredSession(code: code, hostUserId: host, game: settings,
                                                          createdAt: hub.configuration.wallClock()))
                return code
            } catch where error == .duplicateKey && attempt < 4 {
                hub.quotas.userSessions.withLockedValue { $0.remove(code) }
                guard let next = try? reserveCode(host: host) else { throw .duplicateKey }
                code = next
            } catch {
                hub.quotas.userSessions.withLockedValue { $0.remove(code) }
                throw error
            }
        }
        throw .duplicateKey
    }

    /// The full lobby for the session's host and seated players (a token in `Authorization`); for anyone else the
    /// `LobbySummary`, without names, photos or player ids. Lookups are budgeted (`SessionHub.lookUp`).
    func lobby(code text: String, request: HTTPRequest, reply: Reply) {
        let user: UserID?
        do throws(APIError) { user = try optionalCaller(request) } catch { return reply.send(.error(error)) }
        hub.lookUp(text, from: request.remoteAddress, user: user) { lookup in
            guard case .live(let live, let member) = lookup else { return refuse(lookup, request, reply) }
            if member {
                live.read({ $0.lobby }) { lobby in reply.send((try? json(200, lobby)) ?? .error(.internal)) }
            } else {
                live.read({ $0.lobbySummary }) { summary in reply.send((try? json(200, summary)) ?? .error(.internal)) }
            }
        }
    }

    /// Joins are limited per user and per session (docs/SECURITY.md, "Joins"), not per address: a venue's phones
    /// share one. Unknown codes spend from the address's failed-lookup budget.
    func join(code text: String, request: HTTPRequest, reply: Reply) {
        let token: AccessToken
        do throws(APIError) {
            token = try caller(request, allowing: [.user, .guest])
        } catch {
            return reply.send(.error(error))
        }
        if let wait = hub.joinLimiter.withLockedValue({ $0.attempt(token.userId, now: .now) }) {
            return reply.send(.error(.tooManyJoinAttempts, retryAfter: wait))
        }
        // A seat must be stored before it is answered: while the store is out of reach, fail fast.
        if let cluster = hub.cluster, !cluster.storeReachable {
            return reply.send(.error(.storeUnavailable, retryAfter: 2))
        }
        hub.lookUp(text, from: request.remoteAddress, user: token.userId) { lookup in
            guard case .live(let live, let member) = lookup else { return refuse(lookup, request, reply) }
            // A seated user's join again (it returns the same seat) is never held up by the others.
            if !member, let wait = hub.sessionJoinLimiter.withLockedValue({ $0.attempt(live.code, now: .now) }) {
                return reply.send(.error(.tooManyJoinAttempts, retryAfter: wait))
            }
            join(live, token: token, reply: reply)
        }
    }

    private func join(_ live: LiveSession, token: AccessToken, reply: Reply) {
        let code = live.code
        hub.worker.async {
            let profile: Profile?
            do throws(StoreError) {
                profile = try self.profile(of: token.userId)
            } catch {
                return reply.send(.error(storeFailure(error)))
            }
            // A purged guest's token (its user is gone) is no longer valid.
            guard let profile else { return reply.send(.error(.invalidToken)) }
            let playerId = PlayerID(RandomID.hex(bytes: 12))
            let resumeToken = RandomID.hex(bytes: 24)
            live.request({ state, now throws(APIError) in
                // Joined on a copy: a seat the store could not take is refused, and the session is as it was.
                var joined = state
                let outcome = try joined.join(user: token.userId, displayName: profile.displayName,
                                              photoURL: profile.photoURL, playerId: playerId,
                                              resumeToken: resumeToken, now: now)
                // Written before the actions run (and so before the reply): the seat's row with its first journey.
                if outcome.playerId == playerId {
                    let journey = joined.seats[playerId]?.journey.snapshot(now: now, wallNow: hub.configuration.wallClock())
                    try hub.recordSeat(outcome, code: code, user: token.userId, journey: journey)
                    if let journey { live.seatStored(playerId, journey: journey) }
                }
                state = joined
                return (outcome, outcome.actions)
            }) { result in
                switch result {
                case .failure(let error):
                    reply.send(.error(error))
                case .success(let outcome):
                    hub.metrics.joined()
                    // Several nodes: absolute, on this node (the owner), whichever node the phone asked.
                    let path = (hub.cluster?.url ?? "") + "/sessions/\(code.value)/player/\(token.userId.rawValue)"
                    reply.send((try? json(200, JoinResponse(playerId: outcome.playerId, websocketURL: path,
                                                             resumeToken: outcome.resumeToken))) ?? .error(.internal))
                }
            }
        }
    }

    func hostControl(_ command: String, code text: String, request: HTTPRequest, reply: Reply) {
        let token: AccessToken
        do throws(APIError) {
            token = try caller(request)
        } catch {
            return reply.send(.error(error))
        }
        hub.lookUp(text, from: request.remoteAddress, user: token.userId) { lookup in
            guard case .live(let live, member: true) = lookup else {
                // Someone with no part in the session: answered (and counted) as an unknown code.
                if case .live = lookup { return reply.send(Self.refusal(hub.failedLookup(from: request.remoteAddress))) }
                return refuse(lookup, request, reply)
            }
            control(live, command, token: token, reply: reply)
        }
    }

    private func control(_ live: LiveSession, _ command: String, token: AccessToken, reply: Reply) {
        let code = live.code
        let starting = command == "start"
        live.request({ state, now throws(APIError) in
            let actions = starting ? try state.start(by: token.userId, now: now) : try state.end(by: token.userId, now: now)
            return (state.phase, actions)
        }) { result in
            switch result {
            case .failure(let error):
                reply.send(.error(error))
            case .success(let phase):
                hub.logger.info(starting ? "game started" : "session ended by host",
                                metadata: ["session.code": "\(code)"])
                reply.send(.json(200, #"{"state":"\#(phase.rawValue)"}"#))
            }
        }
    }

    func startStreams(_ request: HTTPRequest, reply: Reply) {
        let token: AccessToken
        let start: StreamStartRequest
        do throws(APIError) {
            token = try caller(request, allowing: [.user, .guest])
            start = try body(StreamStartRequest.self, of: request)
            guard start.video != nil || start.audio != nil else { throw APIError.noMedia }
        } catch {
            return reply.send(.error(error))
        }
        hub.lookUp(start.sessionCode, from: request.remoteAddress, user: token.userId) { lookup in
            guard case .live(let live, member: true) = lookup else {
                // No seat in the session: answered (and counted) as an unknown code.
                if case .live = lookup { return reply.send(Self.refusal(hub.failedLookup(from: request.remoteAddress))) }
                return refuse(lookup, request, reply)
            }
            startStreams(live, token: token, start: start, reply: reply)
        }
    }

    private func startStreams(_ live: LiveSession, token: AccessToken, start: StreamStartRequest, reply: Reply) {
        let streamId = RandomID.hex(bytes: 12)
        live.startStreams(user: token.userId, request: start, streamId: streamId) { result in
            switch result {
            case .failure(let error): reply.send(.error(error))
            case .success(let id): reply.send(.json(200, #"{"streamId":"\#(id)"}"#))
            }
        }
    }
}
