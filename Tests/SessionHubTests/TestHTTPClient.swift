import NIOHTTP1
import PongClient

/// PongClient's one-request `HTTPClient` for end-to-end tests, to 127.0.0.1 with `Host: 127.0.0.1`; the body as text.
enum TestHTTPClient {
    struct Response {
        var status: Int
        var headers: HTTPHeaders
        var body: String
    }

    static func request(_ method: HTTPMethod, port: Int, path: String, body: String? = nil,
                        headers: [(String, String)] = []) async throws -> Response {
        let reply = try await HTTPClient.send(method.rawValue, path, body: body.map { Array($0.utf8) },
                                              headers: [("Host", "127.0.0.1")] + headers, port: port)
        return Response(status: reply.status, headers: reply.headers, body: reply.text)
    }
}
