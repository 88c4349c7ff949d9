import NIOCore
import NIOWebSocket

/// A client frame RFC 6455 says must fail the connection, found before fragments are reassembled.
enum WebSocketViolation: Error, Equatable {
    /// A client frame without a masking key (§5.1).
    case unmasked
    /// An RSV bit set while no extension is negotiated (§5.2).
    case reservedBits
    /// An opcode RFC 6455 reserves (3–7, 11–15).
    case reservedOpcode(UInt8)
    /// A text message that is not UTF-8 (§8.1): close 1007.
    case invalidUTF8
}

/// Checks each frame as decoded, before `NIOWebSocketFrameAggregator` (which drops the masking key): a violation is
/// passed on as an error (the `WebSocketHandler` closes with 1002, or 1007 for UTF-8) and the frame and everything
/// after it are dropped. The fragments of a text message are checked for UTF-8 as they come (`UTF8Validation`);
/// a whole text in one frame is checked by the `WebSocketHandler`.
final class WebSocketFrameChecks: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    private var failed = false
    /// A fragmented message under way.
    private enum Fragmented { case text(UTF8Validation), binary }
    private var fragmented: Fragmented?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        let frame = unwrapInboundIn(data)
        if let violation = Self.violation(in: frame) ?? fragmentViolation(in: frame) {
            failed = true
            context.fireErrorCaught(violation)
            return
        }
        context.fireChannelRead(data)
    }

    /// Follows fragmented messages, and finds invalid UTF-8 in a text's fragments as soon as it arrives. Frames out of
    /// order are left to the aggregator (1002).
    private func fragmentViolation(in frame: WebSocketFrame) -> WebSocketViolation? {
        switch (frame.opcode, fragmented) {
        case (.text, nil) where !frame.fin:
            var validation = UTF8Validation()
            validation.add(frame.unmaskedData.readableBytesView)
            fragmented = .text(validation)
            return validation.failed ? .invalidUTF8 : nil
        case (.binary, nil) where !frame.fin:
            fragmented = .binary
        case (.continuation, .text(var validation)?):
            validation.add(frame.unmaskedData.readableBytesView)
            fragmented = frame.fin ? nil : .text(validation)
            return validation.failed || (frame.fin && !validation.isComplete) ? .invalidUTF8 : nil
        case (.continuation, .binary?) where frame.fin:
            fragmented = nil
        default:
            break
        }
        return nil
    }

    /// What is wrong with a client frame, if anything.
    static func violation(in frame: WebSocketFrame) -> WebSocketViolation? {
        guard frame.maskKey != nil else { return .unmasked }
        guard !frame.rsv1, !frame.rsv2, !frame.rsv3 else { return .reservedBits }
        switch frame.opcode {
        case .continuation, .text, .binary, .connectionClose, .ping, .pong: return nil
        default: return .reservedOpcode(UInt8(webSocketOpcode: frame.opcode))
        }
    }
}
