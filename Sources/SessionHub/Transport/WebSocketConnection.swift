import NIOCore
import NIOWebSocket
import PongWire

/// Which socket a WebSocket is, from its path: a player's (`/sessions/{code}/player/{userId}`) or the host's
/// dashboard (`/sessions/{code}/dashboard`), with the `?token=` it presented.
package struct WebSocketEndpoint: Hashable, Sendable {
    package enum Role: Hashable, Sendable { case player(userId: String), dashboard }

    /// The session code as typed in the path (normalised by the hub).
    package var sessionCode: String
    /// Player or dashboard.
    package var role: Role
    /// The bearer token from the query (browsers cannot set headers on a WebSocket).
    package var token: String?

    /// An endpoint given as is, for a route that parses its own paths (`WebSocketRoute.endpoint(uri:)`).
    package init(sessionCode: String, role: Role, token: String?) {
        self.sessionCode = sessionCode
        self.role = role
        self.token = token
    }

    /// Parses a request URI; nil when the path is not a WebSocket endpoint.
    package init?(uri: String) {
        let parts = uri.split(separator: "?", maxSplits: 1)
        let path = parts.first.map(String.init) ?? uri
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var token: String?
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                if kv.count == 2, kv[0] == "token" { token = String(kv[1]).removingPercentEncodingSafely }
            }
        }
        switch segments.count {
        case 4 where segments[0] == "sessions" && segments[2] == "player" && !segments[3].isEmpty:
            role = .player(userId: segments[3])
        case 3 where segments[0] == "sessions" && segments[2] == "dashboard":
            role = .dashboard
        default:
            return nil
        }
        sessionCode = segments[1]
        self.token = token
    }
}

extension String {
    /// Percent-decoding that returns the input unchanged when it is not valid percent-encoding.
    fileprivate var removingPercentEncodingSafely: String {
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { return self }
            bytes.append(value)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// One open WebSocket, as the hub sees it: an id, its endpoint and client address, and thread-safe ways to write.
package final class WebSocketConnection: Sendable, Hashable {
    /// Unique per process.
    package let id: UInt64
    /// What the socket is for.
    package let endpoint: WebSocketEndpoint
    /// The client's IP address, for logs and per-address limits.
    package let remoteAddress: String
    private let channel: any Channel

    package init(id: UInt64, endpoint: WebSocketEndpoint, remoteAddress: String, channel: any Channel) {
        self.id = id
        self.endpoint = endpoint
        self.remoteAddress = remoteAddress
        self.channel = channel
    }

    /// The event loop the socket's events come on (`WebSocketRoute`'s calls), for timers that must not race them.
    package var eventLoop: any EventLoop { channel.eventLoop }

    /// Sends a text frame; safe from any thread.
    package func send(text: String) {
        let channel = channel
        channel.eventLoop.execute {
            let buffer = channel.allocator.buffer(string: text)
            channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: buffer), promise: nil)
        }
    }

    /// Sends a binary frame; safe from any thread.
    package func send(binary: ByteBuffer) {
        let channel = channel
        channel.eventLoop.execute {
            channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .binary, data: binary), promise: nil)
        }
    }

    /// Sends a close frame with `code` and `reason`, then closes the socket once the peer has it
    /// (`WebSocketHandler.closeGracefully`); safe from any thread.
    package func close(code: UInt16, reason: String) {
        let channel = channel
        channel.eventLoop.execute {
            channel.pipeline.fireUserInboundEventTriggered(WebSocketCloseRequest(code: code, reason: reason))
        }
    }

    /// How long a closing socket waits for its close frame to go out and for the peer to close before it is closed
    /// anyway.
    static let closeFlushTimeout: TimeAmount = .seconds(2)

    package static func == (lhs: WebSocketConnection, rhs: WebSocketConnection) -> Bool { lhs.id == rhs.id }
    package func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// Asks a socket's `WebSocketHandler` to close it with this code and reason (`WebSocketConnection.close`).
struct WebSocketCloseRequest {
    let code: UInt16
    let reason: String
}

/// Where a WebSocket's events go: implemented by the hub. Called on the socket's event loop; return quickly.
package protocol WebSocketRoute: Sendable {
    /// Which WebSocket endpoint a request URI names; nil leaves the request to the HTTP router. Defaults to the
    /// session paths (`WebSocketEndpoint(uri:)`).
    func endpoint(uri: String) -> WebSocketEndpoint?
    /// Per-socket message rates beyond which a socket is closed with 4008. Defaults to `WebSocketLimits`'.
    var messageRates: WebSocketMessageRates { get }
    /// Whether an upgrade with these `Origin` and `Host` headers may proceed; a refused one is answered as plain
    /// HTTP by the router. Defaults to true.
    func allowsUpgrade(origin: String?, host: String?) -> Bool
    /// The upgrade completed.
    func opened(_ connection: WebSocketConnection)
    /// A complete text message of at most `WebSocketLimits.maxTextBytes`.
    func received(text: [UInt8], from connection: WebSocketConnection)
    /// A complete binary message (a media frame) other than bulk probe filler.
    func received(binary: ByteBuffer, from connection: WebSocketConnection)
    /// Bulk upload-probe filler (`FillerBatch`): `frames` whole filler frames of `fillerBytes` bytes in all, read
    /// in one burst. Defaults to nothing.
    func received(fillerBytes: Int, frames: Int, from connection: WebSocketConnection)
    /// A text message over the cap arrived and was dropped; the socket stays open.
    func oversized(bytes: Int, from connection: WebSocketConnection)
    /// The socket closed, for whatever reason.
    func closed(_ connection: WebSocketConnection)
}

extension WebSocketRoute {
    package func endpoint(uri: String) -> WebSocketEndpoint? { WebSocketEndpoint(uri: uri) }
    package var messageRates: WebSocketMessageRates { .standard }
    package func allowsUpgrade(origin: String?, host: String?) -> Bool { true }
    package func received(fillerBytes: Int, frames: Int, from connection: WebSocketConnection) {}
}

/// Burst and sustained message rates per socket (token buckets), text and binary apart.
package struct WebSocketMessageRates: Sendable, Equatable {
    package var textBurst: Double
    package var textPerSecond: Double
    package var binaryBurst: Double
    package var binaryPerSecond: Double

    /// pongd's rates (`WebSocketLimits`).
    package static let standard = WebSocketMessageRates(
        textBurst: WebSocketLimits.textBurst, textPerSecond: WebSocketLimits.textPerSecond,
        binaryBurst: WebSocketLimits.binaryBurst, binaryPerSecond: WebSocketLimits.binaryPerSecond)
}
