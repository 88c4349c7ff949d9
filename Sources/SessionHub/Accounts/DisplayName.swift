import PongWire

/// A display name as the lobby and scoreboard show it: 1–20 characters (grapheme clusters, so "👨‍👩‍👧" is one) and at
/// most 128 UTF-8 bytes after trimming surrounding whitespace, without control characters, line breaks or bidi
/// controls, and not made only of invisible characters (zero-width, format characters, lone combining marks).
package struct DisplayName: Hashable, Sendable, CustomStringConvertible {
    /// Most characters allowed.
    package static let maxLength = 20
    /// Most UTF-8 bytes allowed (20 characters of most scripts, or 5 family emoji; a letter under a thousand
    /// combining marks is one character but not 128 bytes).
    package static let maxBytes = 128

    /// The trimmed name.
    package let value: String

    /// The name `input` stands for, or `.invalidDisplayName`.
    package init(validating input: String) throws(APIError) {
        guard let text = TextRules.visibleText(input, graphemes: Self.maxLength, bytes: Self.maxBytes) else {
            throw .invalidDisplayName
        }
        value = text
    }

    package var description: String { value }
}
