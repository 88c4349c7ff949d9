/// Why a `WebSocketClient` could not open.
public struct WebSocketClientError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case upgradeRefused(status: UInt)
        case closedBeforeUpgrade
        case responseHeadTooLarge
        case malformedResponse
        case notWebSocket
        case acceptMismatch
    }

    private let code: Code

    /// The server answered the upgrade request with a plain HTTP response of `status`.
    public static func upgradeRefused(status: UInt) -> WebSocketClientError {
        WebSocketClientError(code: .upgradeRefused(status: status))
    }

    /// The connection ended before the upgrade completed.
    public static let closedBeforeUpgrade = WebSocketClientError(code: .closedBeforeUpgrade)

    /// The server's response head did not end within 16 KiB.
    public static let responseHeadTooLarge = WebSocketClientError(code: .responseHeadTooLarge)

    /// The server's response head is not HTTP/1.x: no status line with a three-digit status, or a header line
    /// without a colon.
    public static let malformedResponse = WebSocketClientError(code: .malformedResponse)

    /// The server answered 101 without `Upgrade: websocket` and `Connection: Upgrade`.
    public static let notWebSocket = WebSocketClientError(code: .notWebSocket)

    /// The server answered 101 with a `Sec-WebSocket-Accept` that does not match the request's key.
    public static let acceptMismatch = WebSocketClientError(code: .acceptMismatch)

    /// A short English description.
    public var description: String {
        switch code {
        case .upgradeRefused(let status): "WebSocket upgrade refused: \(status)"
        case .closedBeforeUpgrade: "WebSocket closed before the upgrade completed"
        case .responseHeadTooLarge: "WebSocket upgrade failed: response head over 16 KiB"
        case .malformedResponse: "WebSocket upgrade failed: malformed HTTP response head"
        case .notWebSocket: "WebSocket upgrade failed: 101 without Upgrade: websocket and Connection: Upgrade"
        case .acceptMismatch: "WebSocket upgrade failed: Sec-WebSocket-Accept does not match the key"
        }
    }
}
