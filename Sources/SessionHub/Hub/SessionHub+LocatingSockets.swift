import NIOCore
import PongWire

/// Several nodes: a socket whose session must first be looked up in the store waits (`LocatingSocket`), counted
/// against its user's sockets, its text messages held, under the hello deadline; then it is attached, in order.
extension SessionHub {
    /// The session of a socket being located is here: attaches the socket and hands it what it sent meanwhile, in
    /// order, before anything it sends next. Done on the socket's event loop, where its messages and its close
    /// arrive: a message before this is held (`hold`), one after it finds the socket bound; no lock is held while
    /// the messages are decoded. A socket closed meanwhile (its entry gone: `closed`, `hold`'s 4008, the hello
    /// deadline's 4005) is not attached.
    func located(_ connection: WebSocketConnection, at live: LiveSession, token: AccessToken) {
        connection.eventLoop.execute {
            guard let socket = self.endLocating(connection),
                  self.attach(connection, to: live, token: token, opened: socket.opened) else { return }
            for text in socket.held { self.submit(text, from: connection, to: live) }
        }
    }

    /// Ends the wait of a socket being located: its entry goes and its deadline is cancelled (its count stays);
    /// nil when it was no longer waiting.
    func endLocating(_ connection: WebSocketConnection) -> LocatingSocket? {
        let socket = locatingSockets.withLockedValue { $0.removeValue(forKey: connection.id) }
        socket?.deadline?.cancel()
        return socket
    }

    /// Starts the wait of a socket whose session is looked up in the store: it counts against `user`'s sockets
    /// from now (beyond `maxSocketsPerUser`: `error too_many_connections` and close 4008, false), its text messages
    /// are held (`hold`), and if it still waits at the hello deadline it is closed with 4005.
    func startLocating(_ connection: WebSocketConnection, user: UserID) -> Bool {
        guard userSockets.withLockedValue({ $0.opened(connection.id, user: user) }) else {
            refuse(connection, .tooManyConnections, close: .tooManySockets)
            return false
        }
        // On the socket's event loop, as `opened`: the entry is in place before the deadline can run.
        let deadline = connection.eventLoop.scheduleTask(in: TimeAmount(configuration.session.helloTimeout)) {
            [weak self] () -> Void in self?.locatingTimedOut(connection)
        }
        locatingSockets.withLockedValue { $0[connection.id] = LocatingSocket(opened: .now, deadline: deadline) }
        return true
    }

    /// Ends the wait of a socket that will not be attached (its session is elsewhere or unknown, it sent too much,
    /// its deadline passed): its entry, deadline and count go. False when it was no longer waiting.
    func abandonLocating(_ connection: WebSocketConnection) -> Bool {
        guard endLocating(connection) != nil else { return false }
        userSockets.withLockedValue { $0.closed(connection.id) }
        return true
    }

    /// A socket still waiting for its session at the hello deadline: closed with 4005, as a socket that did not say
    /// `hello` in time (the phone reconnects and says it again).
    private func locatingTimedOut(_ connection: WebSocketConnection) {
        guard abandonLocating(connection) else { return }
        logger.info("socket refused", metadata: [
            "socket.path.code": "\(connection.endpoint.sessionCode)", "close.code": "\(CloseCode.helloTimeout.code)",
            "close.reason": "session not found before the hello deadline",
        ])
        connection.close(code: CloseCode.helloTimeout.code, reason: CloseCode.helloTimeout.reason)
    }

    /// Keeps a text message of a socket whose session is being located; true when it was (the socket is being
    /// located). Beyond `maxHeldWhileLocating` messages the socket is closed with 4008 (a phone sends one `hello`
    /// and waits for `welcome`): a socket's wait holds at most that many.
    func hold(_ text: [UInt8], from connection: WebSocketConnection) -> Bool {
        // One node locates nothing: its sockets' messages take no lock here.
        guard cluster != nil else { return false }
        let kept: Bool? = locatingSockets.withLockedValue { locating in
            guard let count = locating[connection.id]?.held.count else { return nil }
            guard count < Self.maxHeldWhileLocating else { return false }
            locating[connection.id]?.held.append(text)
            return true
        }
        guard let kept else { return false }
        if !kept, abandonLocating(connection) {
            logger.info("socket refused", metadata: [
                "socket.path.code": "\(connection.endpoint.sessionCode)", "close.code": "\(CloseCode.flooded.code)",
                "held.messages": "\(Self.maxHeldWhileLocating)",
            ])
            connection.close(code: CloseCode.flooded.code, reason: CloseCode.flooded.reason)
        }
        return true
    }

    /// Most text messages kept per socket while its session is located; one more closes the socket with 4008.
    static let maxHeldWhileLocating = 4
}
