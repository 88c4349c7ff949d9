/// UTF-8 checked piece by piece as a fragmented text message arrives (RFC 3629; Unicode's table of well-formed byte
/// sequences): it fails at the first byte that cannot begin or continue a valid sequence, so a bad fragment ends the
/// socket at once instead of when the message is complete (Autobahn 6.4.1, 6.4.2). Pure.
struct UTF8Validation: Equatable {
    /// Continuation bytes still owed by the sequence under way.
    private var owed = 0
    /// The range the next continuation byte must fall in (narrower after E0, ED, F0, F4).
    private var lowest: UInt8 = 0x80
    private var highest: UInt8 = 0xBF
    /// Set at the first invalid byte; stays set.
    private(set) var failed = false

    /// Whether everything fed so far ends on a whole code point (a complete message must).
    var isComplete: Bool { !failed && owed == 0 }

    /// Feeds the next bytes; false once the stream can no longer be valid UTF-8.
    @discardableResult
    mutating func add(_ bytes: some Sequence<UInt8>) -> Bool {
        guard !failed else { return false }
        for byte in bytes where !accept(byte) {
            failed = true
            return false
        }
        return true
    }

    private mutating func accept(_ byte: UInt8) -> Bool {
        if owed > 0 {
            guard (lowest...highest).contains(byte) else { return false }
            owed -= 1
            (lowest, highest) = (0x80, 0xBF)
            return true
        }
        switch byte {
        case 0x00...0x7F: return true
        case 0xC2...0xDF: owed = 1
        case 0xE0: (owed, lowest) = (2, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: owed = 2
        case 0xED: (owed, highest) = (2, 0x9F)  // no UTF-16 surrogates
        case 0xF0: (owed, lowest) = (3, 0x90)
        case 0xF1...0xF3: owed = 3
        case 0xF4: (owed, highest) = (3, 0x8F)  // nothing past U+10FFFF
        default: return false  // a lone continuation byte, C0/C1 (overlong), F5 and up
        }
        return true
    }
}
