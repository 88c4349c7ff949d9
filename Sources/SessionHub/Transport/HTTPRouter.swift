/// One complete HTTP request as the routes see it.
package struct HTTPRequest: Sendable {
    /// GET, POST, …
    package var method: String
    /// The path and query as sent.
    package var uri: String
    /// Header fields (name lower-cased).
    package var headers: [String: String]
    /// The body bytes.
    package var body: [UInt8]
    /// The client's IP address.
    package var remoteAddress: String

    package init(method: String, uri: String, headers: [String: String] = [:], body: [UInt8] = [],
                 remoteAddress: String = "unknown") {
        self.method = method
        self.uri = uri
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The path without the query.
    package var path: String { uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri }
}

/// Answers complete HTTP requests. Called on an event loop: implementations must not block it.
package protocol HTTPRouting: Sendable {
    /// Produces the response, possibly later (work hops to a session queue or the store).
    func respond(to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void)
    /// The transport answered a request itself (a body over the limit, a refused WebSocket upgrade), for metrics.
    func transportAnswered(_ response: HTTPResponse)
    /// Headers the transport adds to its own answers for a request with these `Origin` and `Host` headers: the
    /// CORS headers of an allowed origin, so a page of that origin can read a 413 as well as a routed answer.
    func transportHeaders(origin: String?, host: String?) -> [(String, String)]
}

extension HTTPRouting {
    package func transportAnswered(_ response: HTTPResponse) {}
    package func transportHeaders(origin: String?, host: String?) -> [(String, String)] { [] }
}

/// The built-in routes: `/healthz`. Pure: no sockets, so it is tested without a server.
package struct HTTPRouter: HTTPRouting {
    package init() {}

    package func respond(to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void) {
        completion(respond(method: request.method, path: request.uri, body: request.body))
    }

    /// The response for one complete request.
    package func respond(method: String, path: String, body: [UInt8]) -> HTTPResponse {
        let route = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        switch route {
        case "/healthz":
            guard method == "GET" || method == "HEAD" else { return .error(.methodNotAllowed(method)) }
            return .json(200, #"{"status":"ok"}"#)
        default:
            return .error(.notFound(route))
        }
    }
}
