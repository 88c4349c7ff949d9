/// Base64 without Foundation: base64url without padding for tokens and hashes; decoding also takes the standard
/// alphabet and padding (photos).
package enum Base64 {
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in standard base64 with `=` padding (RFC 4648 §4): the WebSocket handshake's key and accept.
    package static func encoded(_ bytes: [UInt8]) -> String {
        encode(bytes, alphabet: standardAlphabet) + String(repeating: "=", count: (3 - bytes.count % 3) % 3)
    }

    /// `bytes` in base64url, no padding.
    package static func urlEncoded(_ bytes: [UInt8]) -> String {
        encode(bytes, alphabet: urlAlphabet)
    }

    /// The bytes of canonical base64url without padding (what `urlEncoded` writes), or nil for anything else.
    package static func urlDecoded(_ text: String) -> [UInt8]? {
        guard let bytes = decoded(text), urlEncoded(bytes) == text else { return nil }
        return bytes
    }

    /// The bytes of base64 in either alphabet, padded or not; nil for other characters or an impossible length.
    package static func decoded(_ text: String) -> [UInt8]? {
        var input = Array(text.utf8)
        var padding = 0
        while input.last == UInt8(ascii: "="), padding < 2 {
            input.removeLast()
            padding += 1
        }
        guard input.count % 4 != 1, padding == 0 || (input.count + padding) % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in input {
            guard let value = sextet(character) else { return nil }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return output
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): 63
        default: nil
        }
    }

    private static func encode(_ bytes: [UInt8], alphabet: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << UInt32(16 - 8 * offset) }
            for position in 0...chunk.count {
                output.append(alphabet[Int((value >> UInt32(18 - 6 * position)) & 0x3F)])
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
