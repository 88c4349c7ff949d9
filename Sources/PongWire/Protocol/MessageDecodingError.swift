/// Why a text frame or a JSON request body could not be read. Never a crash: every input maps to one of these.
///
/// `field` names the offending field as a dotted path (`video.fps`, `checks[0].id`).
package struct MessageDecodingError: Error, Hashable, Sendable {
    private enum Reason: Hashable, Sendable {
        case malformedJSON, unknownType(String), missingField, invalidField, tooLarge(Int)
    }

    private let reason: Reason
    /// The offending field's path, when one is to blame.
    package let field: String?

    private init(_ reason: Reason, field: String? = nil) {
        self.reason = reason
        self.field = field
    }

    /// Not JSON, not UTF-8, or not a JSON object.
    package static let malformedJSON = MessageDecodingError(.malformedJSON)
    /// A `"type"` this server does not know.
    package static func unknownType(_ type: String) -> MessageDecodingError {
        MessageDecodingError(.unknownType(type), field: "type")
    }
    /// A required field is absent.
    package static func missingField(_ field: String) -> MessageDecodingError {
        MessageDecodingError(.missingField, field: field)
    }
    /// A field has the wrong JSON type, `null` where a value is required, or a value outside its set or range.
    package static func invalidField(_ field: String) -> MessageDecodingError {
        MessageDecodingError(.invalidField, field: field)
    }
    /// The frame or body is over `limit` bytes.
    package static func tooLarge(limit: Int) -> MessageDecodingError {
        MessageDecodingError(.tooLarge(limit))
    }

    /// The snake_case code clients see.
    package var code: String { apiError.code }
    /// The text clients see.
    package var message: String { apiError.message }

    /// The client-facing error (HTTP 400/413 and the `error` message of a WebSocket).
    package var apiError: APIError {
        switch reason {
        case .malformedJSON: .malformedJSON
        case .unknownType(let type): .unknownType(type)
        case .missingField: .missingField(field ?? "")
        case .invalidField: .invalidField(field ?? "")
        case .tooLarge(let limit): .messageTooLarge(limit: limit)
        }
    }
}
