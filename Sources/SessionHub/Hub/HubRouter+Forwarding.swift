import Foundation
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
    /// checked it). An owner that cannot be reached, or whose whole answer has not come within `forwardTimeout`: 503
    /// `session_unavailable` with `Retry-After: 1`, and the connection to it is closed then. Each call holds one of
    /// the node's `maxForwards` slots until it is answered, at most `maxForwardsPerAddress` of them for one client
    /// address: with none free (or the address's share taken), 503 `server_busy` with `Retry-After: 1`.
    func forward(_ request: HTTPRequest, to owner: String, reply: Reply) {
        guard request.headers[Self.forwardedByHeader] == nil, let cluster = hub.cluster,
              let components = URLComponents(string: owner), components.scheme == "http", let host = components.host
        else { return reply.send(.error(.sessionUnavailable, retryAfter: 1)) }
        let address = request.remoteAddress
        let admission = cluster.beginForward(for: address)
        guard admission == .admit else {
            let limit = admission == .refuseAddress
                ? cluster.configuration.maxForwardsPerAddress : cluster.configuration.maxForwards
            hub.logger.warning("too many forwarded calls open", metadata: [
                "node.url": "\(owner)", "http.path": "\(request.path)", "client.address": "\(address)",
                "forwards.refused": "\(admission)", "forwards.max": "\(limit)",
            ])
            return reply.send(.error(.serverBusy, retryAfter: 1))
        }
        var headers: [(String, String)] = [
            (Self.forwardedByHeader, cluster.url),
            ("X-Forwarded-For", address),
        ]
        for name in ["authorization", "content-type"] {
            if let value = request.headers[name] { headers.append((name, value)) }
        }
        let timeout = TimeAmount(cluster.configuration.forwardTimeout)
        let answer = HTTPClient.send(request.method, request.uri, body: request.body.isEmpty ? nil : request.body,
                                     headers: headers, host: host, port: components.port ?? 80, timeout: timeout,
                                     on: MultiThreadedEventLoopGroup.singleton.next())
        hub.metrics.forwarded()
        let logger = hub.logger
        answer.whenComplete { result in
            cluster.endForward(for: address)
            let relayed: HTTPClient.Reply
            switch result {
            case .success(let answer):
                relayed = answer
            case .failure(let error):
                logger.warning("cannot forward a request to the session's owner", metadata: [
                    "node.url": "\(owner)", "http.path": "\(request.path)", "error": "\(error)",
                ])
                return reply.send(.error(.sessionUnavailable, retryAfter: 1))
            }
            var response = HTTPResponse(status: relayed.status,
                                        contentType: relayed.headers.first(name: "content-type") ?? "application/json",
                                        body: relayed.body)
            for name in Self.relayedHeaders {
                if let value = relayed.headers.first(name: name) { response.headers.append((name, value)) }
            }
            reply.send(response)
        }
    }
}
