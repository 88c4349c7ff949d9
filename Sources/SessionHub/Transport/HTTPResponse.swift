import PongWire

/// A response a route produces: status, content type and body bytes.
package struct HTTPResponse: Sendable {
    package var status: Int
    package var contentType: String
    package var body: [UInt8]
    package var headers: [(String, String)]
    /// For an error response, its `error.code` (for metrics and logs).
    package var errorCode: String?

    package init(status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = [],
                 errorCode: String? = nil) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
        self.errorCode = errorCode
    }

    /// A JSON response.
    package static func json(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json; charset=utf-8", body: Array(text.utf8))
    }

    /// The client-facing form of `error`.
    package static func error(_ error: APIError) -> HTTPResponse {
        var response = HTTPResponse.json(error.status, error.jsonBody)
        response.errorCode = error.code
        return response
    }
}
