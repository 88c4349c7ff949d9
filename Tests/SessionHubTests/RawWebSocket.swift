import Foundation

/// A WebSocket spoken by hand over a `RawSocket`: any frame a hostile client could send (unmasked, reserved bits,
/// reserved opcodes, bad close codes), and the server's frames parsed back.
final class RawWebSocket: @unchecked Sendable {
    /// A server frame.
    struct Frame: Equatable {
        var opcode: UInt8
        var payload: [UInt8]
        /// The close code of a close frame.
        var closeCode: UInt16? {
            guard opcode == 8, payload.count >= 2 else { return nil }
            return UInt16(payload[0]) << 8 | UInt16(payload[1])
        }
        var text: String { String(decoding: payload, as: UTF8.self) }
    }

    let socket: RawSocket
    private var buffer: [UInt8] = []

    /// Opens `path` with a valid upgrade (and `extra` header lines, each ending in CRLF); fails unless the answer is
    /// 101.
    init(port: Int, path: String, receiveBuffer: Int32? = nil, extra: String = "") throws {
        socket = try RawSocket(port: port, receiveBuffer: receiveBuffer)
        try socket.send(Self.upgradeRequest(path: path, extra: extra))
        var head = [UInt8]()
        let end = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < end {
            guard let chunk = socket.receive(timeout: .milliseconds(50)) else { break }
            head += chunk
            if let range = head.firstRange(of: Array("\r\n\r\n".utf8)) {
                buffer = Array(head[range.upperBound...])
                head = Array(head[..<range.upperBound])
                break
            }
        }
        guard String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
            throw RawSocket.Failure(what: "no upgrade: \(String(decoding: head, as: UTF8.self))")
        }
    }

    /// A valid upgrade request for `path`, with `extra` header lines (each ending in CRLF) and the method.
    static func upgradeRequest(path: String, method: String = "GET", version: String? = "13",
                               key: String? = "dGhlIHNhbXBsZSBub25jZQ==", extra: String = "") -> String {
        var request = "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        if let version { request += "Sec-WebSocket-Version: \(version)\r\n" }
        if let key { request += "Sec-WebSocket-Key: \(key)\r\n" }
        return request + extra + "\r\n"
    }

    /// One frame's bytes: masked unless `masked` is false; `rsv` sets the RSV bits (0–7).
    static func frame(opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true, rsv: UInt8 = 0)
        -> [UInt8]
    {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | (rsv & 7) << 4 | (opcode & 0x0F)]
        let maskBit: UInt8 = masked ? 0x80 : 0
        switch payload.count {
        case ..<126: bytes.append(maskBit | UInt8(payload.count))
        case ..<65536: bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            bytes.append(maskBit | 127)
            bytes += (0..<8).reversed().map { UInt8((UInt64(payload.count) >> ($0 * 8)) & 0xFF) }
        }
        guard masked else { return bytes + payload }
        let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        return bytes + key + payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
    }

    /// A close frame's payload: the code and a reason.
    static func closePayload(_ code: UInt16, _ reason: [UInt8] = []) -> [UInt8] {
        [UInt8(code >> 8), UInt8(code & 0xFF)] + reason
    }

    /// Sends raw bytes.
    func send(_ bytes: [UInt8]) throws { try socket.send(bytes) }

    /// Sends one frame.
    func send(opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true, rsv: UInt8 = 0) throws {
        try socket.send(Self.frame(opcode: opcode, payload, fin: fin, masked: masked, rsv: rsv))
    }

    /// The next server frame within `timeout`; nil when the socket closed or nothing came.
    func next(timeout: Duration = .seconds(5)) -> Frame? {
        let end = ContinuousClock.now + timeout
        while true {
            if let frame = parse() { return frame }
            guard ContinuousClock.now < end, let chunk = socket.receive(timeout: .milliseconds(50)) else { return nil }
            buffer += chunk
        }
    }

    /// The `error` code and the close code the server sends first (an error message, then the close); nils for what
    /// did not come.
    func refusal(timeout: Duration = .seconds(5)) -> (error: String?, close: UInt16?) {
        var error: String?
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end, let frame = next(timeout: end - ContinuousClock.now) {
            if frame.opcode == 1, error == nil {
                error = (jsonObject(frame.text)["code"] as? String) ?? frame.text
            }
            if frame.opcode == 8 { return (error, frame.closeCode ?? 1005) }
        }
        return (error, nil)
    }

    /// The close code the server sends, skipping other frames; nil when the socket ends without one.
    func closeCode(timeout: Duration = .seconds(5)) -> UInt16? {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            guard let frame = next(timeout: end - ContinuousClock.now) else { return nil }
            if frame.opcode == 8 { return frame.closeCode ?? 1005 }
        }
        return nil
    }

    private func parse() -> Frame? {
        guard buffer.count >= 2 else { return nil }
        var length = Int(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        guard buffer.count >= offset + length else { return nil }
        let frame = Frame(opcode: buffer[0] & 0x0F, payload: Array(buffer[offset..<offset + length]))
        buffer.removeFirst(offset + length)
        return frame
    }
}
