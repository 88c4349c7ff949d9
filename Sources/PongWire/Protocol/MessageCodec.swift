#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads WebSocket text frames and JSON request bodies; writes server messages with stable field names.
package enum MessageCodec {
    /// Largest accepted client text frame.
    package static let maxTextFrameBytes = WebSocketLimits.maxTextBytes

    /// The client message in one text frame, or the reason it is unusable.
    package static func decodeClientMessage(_ text: String) throws(MessageDecodingError) -> ClientMessage {
        try decodeClientMessage(Array(text.utf8))
    }

    /// The client message in one text frame's bytes, or the reason it is unusable.
    package static func decodeClientMessage(_ bytes: [UInt8]) throws(MessageDecodingError) -> ClientMessage {
        guard bytes.count <= maxTextFrameBytes else { throw .tooLarge(limit: maxTextFrameBytes) }
        return try decode(ClientMessage.self, from: bytes)
    }

    /// Any JSON object body (HTTP requests), with the same error mapping as frames.
    package static func decode<Value: Decodable>(
        _ type: Value.Type, from bytes: [UInt8]
    ) throws(MessageDecodingError) -> Value {
        guard JSONNesting.isShallow(bytes, limit: maxNesting) else { throw .malformedJSON }
        do {
            return try decoder.decode(Value.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw Self.map(error)
        } catch let error as ClientMessage.UnknownType {
            throw .unknownType(error.type)
        } catch {
            throw .malformedJSON
        }
    }

    /// A server message as a text frame: compact JSON, keys sorted, slashes unescaped.
    package static func encode(_ message: ServerMessage) throws(APIError) -> String {
        try encodeJSON(message)
    }

    /// Any value (HTTP response bodies, and client messages for simulators) as compact JSON with sorted keys.
    ///
    /// Fails only for values JSON cannot carry (a NaN or infinite number): that is a server bug, so `.internal`.
    package static func encodeJSON(_ value: some Encodable) throws(APIError) -> String {
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw .internal
        }
    }

    /// Nesting deeper than this is refused before parsing (no message of ours nests past 4).
    static let maxNesting = 32

    /// One decoder and one encoder for every message, not one per message: both are `Sendable`, and their options
    /// are set here once.
    private static let decoder = JSONDecoder()
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static func map(_ error: DecodingError) -> MessageDecodingError {
        switch error {
        case .keyNotFound(let key, let context):
            return .missingField(path(context.codingPath + [key]))
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.codingPath.isEmpty ? .malformedJSON : .invalidField(path(context.codingPath))
        @unknown default:
            return .malformedJSON
        }
    }

    /// `video.fps`, `checks[0].id`.
    static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }
}
