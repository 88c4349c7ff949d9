import Crypto
import Foundation
import NIOCore
import PongWire

extension WebSocketClient {
    /// The client's side of the HTTP/1.1 upgrade (RFC 6455 §4.1), with no I/O: the request it sends, and the response
    /// head it reads byte by byte until it is whole.
    ///
    /// `received(_:)` gathers bytes until the head's blank line, at most `maxHeadSize` of them, then judges the head
    /// once: a 101 with `Upgrade: websocket`, `Connection: Upgrade` and the `Sec-WebSocket-Accept` that matches the key
    /// upgrades, and every byte behind the head (frames the server sent with its 101) is handed back, none dropped.
    struct Handshake {
        /// What the handler does after bytes arrived.
        enum Action: Equatable {
            /// The head is not whole yet: wait for more bytes.
            case needMore
            /// The server accepted the upgrade; `leftover` holds the bytes after the head (WebSocket frames).
            case upgraded(leftover: ByteBuffer)
            /// The upgrade failed; close the connection.
            case failed(WebSocketClientError)
        }

        /// The largest response head accepted, its blank line included.
        static let maxHeadSize = 16 * 1024
        /// The GUID RFC 6455 appends to the key before hashing it into `Sec-WebSocket-Accept`.
        private static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
        private static let headEnd: [UInt8] = Array("\r\n\r\n".utf8)

        /// The request's `Sec-WebSocket-Key`: 16 random bytes in base64.
        let key: String
        private var head: ByteBuffer?
        /// How many of the head's bytes were searched for its end already.
        private var scanned = 0
        private var done = false

        /// A handshake with `key` (`randomKey()` for a real connection).
        init(key: String) {
            self.key = key
        }

        /// 16 random bytes in base64, a fresh `Sec-WebSocket-Key`.
        static func randomKey() -> String {
            var generator = SystemRandomNumberGenerator()
            return Base64.encoded((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        }

        /// The `Sec-WebSocket-Accept` a server answers `key` with: base64(SHA-1(key + GUID)).
        static func accept(for key: String) -> String {
            Base64.encoded(Array(Insecure.SHA1.hash(data: Array((key + acceptGUID).utf8))))
        }

        /// The upgrade request for `path` on `host`, a GET without a body.
        func request(path: String, host: String) -> String {
            "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
        }

        /// Takes bytes that arrived (all of `bytes` is consumed). After the first action other than `.needMore`,
        /// every further call answers `.needMore` and keeps nothing.
        mutating func received(_ bytes: inout ByteBuffer) -> Action {
            guard !done else {
                bytes.moveReaderIndex(forwardBy: bytes.readableBytes)
                return .needMore
            }
            var head = self.head ?? ByteBuffer()
            self.head = nil
            head.writeBuffer(&bytes)
            guard let end = Self.endOfHead(in: head.readableBytesView, from: scanned) else {
                if head.readableBytes >= Self.maxHeadSize {
                    done = true
                    return .failed(.responseHeadTooLarge)
                }
                scanned = max(0, head.readableBytes - (Self.headEnd.count - 1))
                self.head = head
                return .needMore
            }
            done = true
            guard end <= Self.maxHeadSize, let text = head.readString(length: end) else {
                return .failed(.responseHeadTooLarge)
            }
            if let error = judge(text) { return .failed(error) }
            return .upgraded(leftover: head)
        }

        /// The offset just past the head's blank line, searching from `start`; nil when it has not arrived.
        private static func endOfHead(in bytes: ByteBufferView, from start: Int) -> Int? {
            let count = headEnd.count
            guard bytes.count >= count else { return nil }
            var offset = start
            let base = bytes.startIndex
            while offset + count <= bytes.count {
                if bytes[base + offset] == headEnd[0], bytes[base + offset + 1] == headEnd[1],
                   bytes[base + offset + 2] == headEnd[2], bytes[base + offset + 3] == headEnd[3] {
                    return offset + count
                }
                offset += 1
            }
            return nil
        }

        /// Nil when `head` (status line and headers, as text) accepts the upgrade; the reason it does not otherwise.
        private func judge(_ head: String) -> WebSocketClientError? {
            var lines = head.split(separator: "\r\n", omittingEmptySubsequences: true)[...]
            guard let statusLine = lines.popFirst() else { return .malformedResponse }
            let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3,
                  let status = UInt(parts[1]) else { return .malformedResponse }
            guard status == 101 else { return .upgradeRefused(status: status) }
            var headers: [String: [Substring]] = [:]
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { return .malformedResponse }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                headers[name, default: []].append(line[line.index(after: colon)...])
            }
            func tokens(_ name: String) -> [String] {
                (headers[name] ?? []).flatMap { $0.split(separator: ",") }
                    .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            }
            guard tokens("upgrade").contains("websocket"), tokens("connection").contains("upgrade") else {
                return .notWebSocket
            }
            let accept = headers["sec-websocket-accept"]?.map { $0.trimmingCharacters(in: .whitespaces) }
            guard accept == [Self.accept(for: key)] else { return .acceptMismatch }
            return nil
        }
    }
}
