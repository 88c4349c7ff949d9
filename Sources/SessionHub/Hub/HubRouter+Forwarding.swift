import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PongClient
import PongWire

/// Several nodes (docs/SCALING.md): a call about a session another node owns (its lobby, QR code, a join, start,
/// end, `POST /streams/start`) is forwarded there and its answer relayed, so a phone may ask any node.
extension HubRouter {
    /// Marks a forwarded request (its value: the forwarding node). A node never forwards such a request again:
    /// when it does not own the session either, ownership is changing and it answers 503 `session_unavailable`.
    static let forwardedByHeader = "x-pongd-forwarded-by"

    /// The owner's answer headers a forwarded answer keeps (the QR code's caching and sandbox among them); CORS and
    /// the generic security headers are this node's own.
    static let relayedHeaders = ["Retry-After", "Cache-Control", "Content-Security-Policy", "ETag"]

    /// Sends `request` to the owner node at `owner` (an `http://HOST:PORT` origin) and relays its status, body,
    /// `Content-Type` and `relayedHeaders` (this node adds its own CORS and security headers). The phone's address goes
    /// along in `X-Forwarded-For` (the owner believes it only from a `--trusted-proxy`), `Origin` does not (this node
    /// checked it). An owner that cannot be reached, or that takes longer than the forward timeout: 503
    /// `session_unavailable` with `Retry-After: 1`.
    func forward(_ request: HTTPRequest, to owner: String, reply: Reply) {
        guard request.headers[Self.forwardedByHeader] == nil, let components = URLComponents(string: owner),
              components.scheme == "http", let host = components.host
        else { return reply.send(.error(.sessionUnavailable, retryAfter: 1)) }
        var headers: [(String, String)] = [
            (Self.forwardedByHeader, hub.cluster?.url ?? "unknown"),
            ("X-Forwarded-For", request.remoteAddress),
        ]
        for name in ["authorization", "content-type"] {
            if let value = request.headers[name] { headers.append((name, value)) }
        }
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let timeout = hub.cluster?.configuration.forwardTimeout ?? .seconds(10)
        let answer = HTTPClient.send(request.method, request.uri, body: request.body.isEmpty ? nil : request.body,
                                     headers: headers, host: host, port: components.port ?? 80, on: loop)
        hub.metrics.forwarded()
        let logger = hub.logger
        // The first of the answer and the deadline replies.
        let replied = NIOLockedValueBox(false)
        let once: @Sendable (HTTPResponse) -> Void = { response in
            guard replied.withLockedValue({ done in defer { done = true }; return !done }) else { return }
            reply.send(response)
        }
        let unavailable: @Sendable () -> Void = {
            logger.warning("cannot forward a request to the session's owner", metadata: [
                "node.url": "\(owner)", "http.path": "\(request.path)",
            ])
            once(.error(.sessionUnavailable, retryAfter: 1))
        }
        let deadline = loop.scheduleTask(in: .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000
            + timeout.components.attoseconds / 1_000_000_000), unavailable)
        answer.whenComplete { result in
            deadline.cancel()
            guard case .success(let relayed) = result else { return unavailable() }
            var response = HTTPResponse(status: relayed.status,
                                        contentType: relayed.headers.first(name: "content-type") ?? "application/json",
                                        body: relayed.body)
            for name in Self.relayedHeaders {
                if let value = relayed.headers.first(name: name) { response.headers.append((name, value)) }
            }
            once(response)
        }
    }
}
