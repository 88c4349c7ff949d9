/// A session's join code: 6 characters from `ABCDEFGHJKLMNPQRSTUVWXYZ23456789` (no 0/O/1/I), shown as `ABC-234`.
package struct SessionCode: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The 32 characters a code is made of.
    package static let alphabet: [Character] = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    /// Characters in a code.
    package static let length = 6

    /// Canonical form, e.g. `"ABC234"` (URLs, storage, lobby `code`).
    package let value: String

    /// A code from user input: case-insensitive, with or without the dash after the third character, surrounding
    /// whitespace trimmed. Anything else (other characters, other lengths, a dash elsewhere) is nil.
    package init?(userInput: String) {
        var scalars = Array(userInput.unicodeScalars.drop { $0.properties.isWhitespace })
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        if scalars.count == Self.length + 1, scalars[3] == "-" { scalars.remove(at: 3) }
        guard scalars.count == Self.length else { return nil }
        var canonical = ""
        for scalar in scalars {
            guard scalar.isASCII else { return nil }
            let byte = UInt8(truncatingIfNeeded: scalar.value)
            let isLower = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            let upper = Character(Unicode.Scalar(isLower ? byte - 32 : byte))
            guard Self.alphabet.contains(upper) else { return nil }
            canonical.append(upper)
        }
        value = canonical
    }

    /// As shown to people: `"ABC-234"`.
    package var displayCode: String {
        String(value.prefix(3)) + "-" + String(value.dropFirst(3))
    }

    /// A fresh code drawn with `random`, different from every code in `live`; nil only if `attempts` draws all
    /// collided (with 32⁶ ≈ 1.07 billion codes that takes an almost full code space).
    package static func generate(
        using random: inout some RandomNumberGenerator, avoiding live: Set<SessionCode>, attempts: Int = 64
    ) -> SessionCode? {
        for _ in 0..<max(attempts, 0) {
            var text = ""
            for _ in 0..<length {
                text.append(alphabet[Int(random.next(upperBound: UInt32(alphabet.count)))])
            }
            if let code = SessionCode(userInput: text), !live.contains(code) { return code }
        }
        return nil
    }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.value < rhs.value }
    package var description: String { value }
}
