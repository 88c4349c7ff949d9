/// A WebSocket close code pongd sends: 4000–4099 final (do not reconnect), 4100–4199 retry.
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
    /// The socket sent messages faster than its limits (docs/PROTOCOL.md); it may reconnect and slow down.
    package static let flooded = CloseCode(4008, "too many messages")
    /// The server is restarting; reconnect and resume.
    package static let serverRestarting = CloseCode(4100, "server restarting")
    /// The session lives on another node; reconnect to the URL in the reason.
    package static func moved(to url: String) -> CloseCode { CloseCode(4101, url) }

    /// True for 4000–4099: the client must not reconnect.
    package var isFinal: Bool { (4000...4099).contains(code) }

    package var description: String { "\(code) \(reason)" }
}
