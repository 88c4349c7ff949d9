/// An error a client sees: an HTTP status and `{"error": {"code", "message"}}` (see docs/PROTOCOL.md).
///
/// This is the one place that decides what a phone is shown; internal failures become `.internal`.
package struct APIError: Error, Hashable, Sendable {
    /// HTTP status for the response.
    package var status: Int
    /// Stable snake_case code clients branch on.
    package var code: String
    /// Text a phone can show.
    package var message: String

    package init(status: Int, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// No route matches the method and path.
    package static func notFound(_ path: String) -> APIError {
        APIError(status: 404, code: "not_found", message: "No such endpoint: \(path)")
    }
    /// The route exists but not for this method.
    package static func methodNotAllowed(_ method: String) -> APIError {
        APIError(status: 405, code: "method_not_allowed", message: "\(method) is not allowed here")
    }
    /// A request body over the size limit.
    package static func payloadTooLarge(limit: Int) -> APIError {
        APIError(status: 413, code: "payload_too_large", message: "Request body exceeds \(limit) bytes")
    }
    /// Anything unexpected; details go to the log, not the client.
    package static let `internal` = APIError(status: 500, code: "internal", message: "Something went wrong on the server")

    /// The JSON body, `{"error":{"code":…,"message":…}}`.
    package var jsonBody: String {
        #"{"error":{"code":\#(JSONText.quote(code)),"message":\#(JSONText.quote(message))}}"#
    }
}

/// Minimal JSON string escaping for hand-written bodies.
package enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    package static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
