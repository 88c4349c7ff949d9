import NIOHTTP1
import PongWire

/// Whether an HTTP request that asks for a WebSocket may have one (RFC 6455 §4.2.1), and the answer when it may not:
/// 405 for a method other than GET, 426 with `Sec-WebSocket-Version: 13` for another version, 400 for a missing
/// `Connection: upgrade` or a key that is not 16 bytes in base64. Pure.
enum WebSocketUpgradeCheck {
    /// An error answer with its extra header fields.
    struct Refusal: Equatable {
        var error: APIError
        var headers: [String: String] = [:]
    }

    /// True when the request's `Upgrade` field names `websocket`.
    static func asksForWebSocket(_ headers: HTTPHeaders) -> Bool {
        headers[canonicalForm: "upgrade"].contains { $0.lowercased() == "websocket" }
    }

    /// nil for a valid upgrade request; otherwise what to answer instead.
    static func refusal(method: HTTPMethod, headers: HTTPHeaders) -> Refusal? {
        guard method == .GET else { return Refusal(error: .methodNotAllowed(method.rawValue), headers: ["Allow": "GET"]) }
        guard headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "upgrade" }) else {
            return Refusal(error: .invalidWebSocketUpgrade)
        }
        guard headers["sec-websocket-version"].first?.trimmingSpaces == "13" else {
            return Refusal(error: .unsupportedWebSocketVersion, headers: ["Sec-WebSocket-Version": "13"])
        }
        guard let key = headers["sec-websocket-key"].first, isNonce(key.trimmingSpaces) else {
            return Refusal(error: .invalidWebSocketUpgrade)
        }
        return nil
    }

    /// 16 bytes in base64: 22 characters of the alphabet and "==".
    static func isNonce(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        guard bytes.count == 24, bytes[22] == UInt8(ascii: "="), bytes[23] == UInt8(ascii: "=") else { return false }
        return bytes[..<22].allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"): true
            default: false
            }
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(self.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
