/// Why a `WebSocketClient` could not open.
public struct WebSocketClientError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case upgradeRefused(status: UInt)
        case closedBeforeUpgrade
    }

    private let code: Code

    /// The server answered the upgrade request with a plain HTTP response of `status`.
    public static func upgradeRefused(status: UInt) -> WebSocketClientError {
        WebSocketClientError(code: .upgradeRefused(status: status))
    }

    /// The connection ended before the upgrade completed.
    public static let closedBeforeUpgrade = WebSocketClientError(code: .closedBeforeUpgrade)

    /// A short English description.
    public var description: String {
        switch code {
        case .upgradeRefused(let status): "WebSocket upgrade refused: \(status)"
        case .closedBeforeUpgrade: "WebSocket closed before the upgrade completed"
        }
    }
}
