import NIOCore
import PongWire

/// The answer to a peer's close frame (RFC 6455 §5.5.1, §7.4): its own code echoed when valid; 1000 for an empty
/// payload; 1002 for a one-byte payload or a code that may not be sent (999, 1004–1006, 1015, 1016–2999, 5000…);
/// 1007 for a reason that is not UTF-8. Pure.
enum WebSocketCloseCheck {
    /// The code to close with in reply to a close frame carrying `payload` (unmasked).
    static func reply(to payload: ByteBuffer) -> UInt16 {
        var payload = payload
        guard payload.readableBytes > 0 else { return 1000 }
        guard let code = payload.readInteger(as: UInt16.self), isValid(code) else { return CloseCode.protocolError.code }
        guard String(validating: payload.readableBytesView, as: UTF8.self) != nil else {
            return CloseCode.invalidPayload.code
        }
        return code
    }

    /// Whether a peer may send `code` in a close frame.
    static func isValid(_ code: UInt16) -> Bool {
        (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
    }
}
