import NIOCore
import PongWire

/// Sockets: authenticate on open, then hand every message to the session's queue.
extension SessionHub: WebSocketRoute {
    package func allowsUpgrade(origin: String?, host: String?) -> Bool {
        let allowed = origins.allows(origin: origin, host: host)
        if !allowed { logger.info("upgrade refused", metadata: ["http.origin": "\(origin ?? "")"]) }
        return allowed
    }

    /// The token is checked first (4001), then the code (`lookUp`'s budget): an unknown code gets 4000 (4129 once
    /// the address's budget is spent), as does a dashboard for a session the caller has no part in; a player
    /// without a seat spends from the budget too and gets 4003 from the state machine.
    package func opened(_ connection: WebSocketConnection) {
        let endpoint = connection.endpoint
        let token: AccessToken
        do throws(APIError) {
            switch endpoint.role {
            case .player(let userId):
                token = try authenticate(endpoint.token, allowing: [.user, .guest])
                guard token.userId.rawValue == userId else { throw APIError.invalidToken }
            case .dashboard:
                token = try authenticate(endpoint.token, allowing: [.host, .user, .guest])
            }
        } catch {
            refuse(connection, error, close: .authFailed)
            return
        }
        guard let code = SessionCode(userInput: endpoint.sessionCode) else {
            return refuse(connection, .sessionNotFound, close: .sessionEnded)
        }
        if let live = session(code) { attach(connection, to: live, token: token); return }
        guard let cluster else { return refuseUnknown(connection) }
        // Several nodes: the store says where the session lives (a read: off the event loop). Meanwhile the socket
        // counts against its user's sockets, what the phone sends (its `hello`) waits and reaches the session once
        // the socket is attached, and the hello deadline runs.
        guard startLocating(connection, user: token.userId) else { return }
        worker.async {
            let location = self.locate(code)
            if case .here(let live) = location { return self.located(connection, at: live, token: token) }
            // A socket closed meanwhile (its entry gone: `closed`, `hold`'s 4008, the hello deadline's 4005) is
            // answered no more: no error frame after its close, and no code guess spent for an address whose socket
            // is gone.
            guard self.abandonLocating(connection) else { return }
            switch location {
            case .here:
                return  // located above
            case .elsewhere(let url):
                let moved = CloseCode.moved(to: ClusterNode.socketURL(code: code, role: endpoint.role, at: url))
                self.logger.debug("socket sent to the session's owner", metadata: [
                    "session.code": "\(code)", "node.id": "\(cluster.id)", "close.reason": "\(moved.reason)",
                ])
                connection.close(code: moved.code, reason: moved.reason)
            case .moving:
                self.refuse(connection, .sessionUnavailable, close: .serverRestarting)
            case .storeDown:
                self.refuse(connection, .storeUnavailable, close: .serverRestarting)
            case .none:
                self.refuseUnknown(connection)
            }
        }
    }

    /// An unknown code: 4000, or 4129 once the address's budget is spent.
    private func refuseUnknown(_ connection: WebSocketConnection) {
        if case .limited(let wait) = failedLookup(from: connection.remoteAddress) {
            refuse(connection, .tooManyCodeGuesses, close: .tooManyCodeGuesses(retryAfter: wait))
        } else {
            refuse(connection, .sessionNotFound, close: .sessionEnded)
        }
    }

    /// A socket of a live session here, its token checked: counted (unless counted while it was located), bound,
    /// and handed to the session; false when refused (its user holds `maxSocketsPerUser`). `opened`: when a socket
    /// that was located opened (its hello deadline runs from there).
    @discardableResult
    func attach(_ connection: WebSocketConnection, to live: LiveSession, token: AccessToken,
                opened: ContinuousClock.Instant? = nil) -> Bool {
        let endpoint = connection.endpoint
        let code = live.code
        guard userSockets.withLockedValue({ $0.opened(connection.id, user: token.userId) }) else {
            refuse(connection, .tooManyConnections, close: .tooManySockets)
            return false
        }
        bind(socket: connection.id, to: live)
        metrics.socket(+1)
        let dashboard = endpoint.role == .dashboard
        logger.debug("socket opened", metadata: [
            "session.code": "\(code)", "user.id": "\(token.userId)", "socket.id": "\(connection.id)",
        ])
        // Bound at once so that a `hello` right behind the upgrade queues behind this on the session's queue.
        live.attach(connection, user: token.userId, dashboard: dashboard, opened: opened) { [weak self] state in
            let user = token.userId
            guard state.host.userId != user, state.playerID(of: user) == nil, let self else { return nil }
            switch self.failedLookup(from: connection.remoteAddress) {
            case .limited(let wait): return (.tooManyCodeGuesses, .tooManyCodeGuesses(retryAfter: wait))
            case .unknown, .live, .remote, .moving, .storeDown: return dashboard ? (.sessionNotFound, .sessionEnded) : nil
            }
        }
        return true
    }

    package func received(text: [UInt8], from connection: WebSocketConnection) {
        metrics.message(binary: false)
        guard !hold(text, from: connection), let live = sessionOf(socket: connection.id) else { return }
        submit(text, from: connection, to: live)
    }

    /// Decodes a text message of a socket attached to `live` and hands it to the session's queue.
    func submit(_ text: [UInt8], from connection: WebSocketConnection, to live: LiveSession) {
        guard !handingOver.load(ordering: .relaxed) else { return }
        let message: ClientMessage
        do {
            message = try MessageCodec.decodeClientMessage(text)
        } catch {
            send(.error(error.apiError), to: connection)
            return
        }
        let id = ConnectionID(connection.id)
        live.submit { state, now in state.received(message, on: id, now: now) }
    }

    package func received(binary: ByteBuffer, from connection: WebSocketConnection) {
        metrics.message(binary: true)
        guard let live = sessionOf(socket: connection.id), !handingOver.load(ordering: .relaxed) else { return }
        do throws(MediaFrameError) {
            live.mediaFrame(try MediaFrame.parse(binary), in: binary, from: ConnectionID(connection.id))
        } catch {
            live.malformedFrame(error, from: ConnectionID(connection.id))
        }
    }

    package func received(fillerBytes: Int, frames: Int, from connection: WebSocketConnection) {
        metrics.message(binary: true, count: frames)
        sessionOf(socket: connection.id)?.filler(bytes: fillerBytes, from: ConnectionID(connection.id))
    }

    package func oversized(bytes: Int, from connection: WebSocketConnection) {
        send(.error(.messageTooLarge(limit: WebSocketLimits.maxTextBytes)), to: connection)
    }

    package func closed(_ connection: WebSocketConnection) {
        // On the socket's event loop, as `located`'s attach: either that sees the entry gone and attaches nothing,
        // or it ran first and the socket is counted and bound by now.
        _ = endLocating(connection)
        userSockets.withLockedValue { $0.closed(connection.id) }
        guard let live = sessionOf(socket: connection.id, unbinding: true) else { return }
        metrics.socket(-1)
        live.detach(connection)
    }

    func refuse(_ connection: WebSocketConnection, _ error: APIError, close code: CloseCode) {
        // A guesser's refusals come by the thousand a second: not worth a line each at info.
        logger.log(level: error == .tooManyCodeGuesses ? .debug : .info, "socket refused", metadata: [
            "socket.path.code": "\(connection.endpoint.sessionCode)", "error.code": "\(error.code)",
            "close.code": "\(code.code)",
        ])
        send(.error(error), to: connection)
        connection.close(code: code.code, reason: code.reason)
    }

    private func send(_ message: ServerMessage, to connection: WebSocketConnection) {
        if case .error(let body) = message { metrics.error(body.code) }
        guard let text = try? MessageCodec.encode(message) else { return }
        connection.send(text: text)
    }
}
