/// Maps a method and path to a response. Pure: no sockets, so it is tested without a server.
package struct HTTPRouter: Sendable {
    package init() {}

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
