/// A WebSocket close code pongd sends: 4000–4099 final (do not reconnect; 4005 and 4008 aside), 4100–4199 retry;
/// 1000–1011 are RFC 6455's own.
package struct CloseCode: Hashable, Sendable, CustomStringConvertible {
    /// The numeric close code.
    package let code: UInt16
    /// Short close reason text (well under the 123-byte limit of a close frame).
    package let reason: String

    private init(_ code: UInt16, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The session ended (host ended it, or it expired idle); `sessionEnded {reason}` precedes it.
    package static let sessionEnded = CloseCode(4000, "session ended")
    /// Bad token, a dashboard token for another user, or a wrong resume token.
    package static let authFailed = CloseCode(4001, "authentication failed")
    /// The player sent `leave`; the seat is freed.
    package static let left = CloseCode(4002, "left the session")
    /// The user has no seat (never joined, or the seat was freed after the grace period).
    package static let notJoined = CloseCode(4003, "not joined")
    /// Another socket resumed this seat.
    package static let replaced = CloseCode(4004, "replaced by a newer connection")
    /// A player socket did not send `hello` within the hello timeout (10 s); it may reconnect and say hello at once.
    package static let helloTimeout = CloseCode(4005, "hello not received in time")
    /// The socket sent messages faster than its limits (docs/PROTOCOL.md); it may reconnect and slow down.
    package static let flooded = CloseCode(4008, "too many messages")
    /// The user already holds as many sockets as allowed (docs/SECURITY.md); close one first.
    package static let tooManySockets = CloseCode(4008, "too many connections")
    /// A WebSocket protocol violation (RFC 6455): unmasked frame, reserved bits or opcode, bad close code, bad
    /// fragments.
    package static let protocolError = CloseCode(1002, "protocol error")
    /// A text message that is not UTF-8, or a close reason that is not.
    package static let invalidPayload = CloseCode(1007, "invalid UTF-8")
    /// The peer does not read: output queued for it passed the limit (docs/SECURITY.md); its queue is dropped.
    package static let outputOverflow = CloseCode(1008, "output queue full")
    /// A frame or reassembled message over 256 KiB.
    package static let messageTooBig = CloseCode(1009, "message too big")
    /// The server is restarting; reconnect and resume.
    package static let serverRestarting = CloseCode(4100, "server restarting; retry in 1 s")
    /// The delay `serverRestarting`'s reason hints at before the first reconnect (docs/PROTOCOL.md).
    package static let restartRetryHint: Duration = .seconds(1)
    /// The server's keep-alive ping was not answered in time (`TransportLimits.pongTimeout`); reconnect and resume.
    package static let noPong = CloseCode(4102, "no pong in time")
    /// Too many lookups of unknown session codes from the client's address (`error too_many_code_guesses` first);
    /// retry after the seconds in the reason.
    package static func tooManyCodeGuesses(retryAfter seconds: Int) -> CloseCode {
        CloseCode(4129, "too many code guesses, retry in \(seconds) s")
    }
    /// The session lives on another node; reconnect to the URL in the reason.
    package static func moved(to url: String) -> CloseCode { CloseCode(sessionMovedCode, url) }
    /// The code of `moved(to:)`: the reason is the absolute URL of the socket to reconnect to (no token).
    package static let sessionMovedCode: UInt16 = 4101

    /// True for 4000–4099: the client must not reconnect.
    package var isFinal: Bool { (4000...4099).contains(code) }

    package var description: String { "\(code) \(reason)" }
}
