/// A display name as the lobby and scoreboard show it: 1–20 characters (grapheme clusters, so "👨‍👩‍👧" is one)
/// after trimming surrounding whitespace, without control characters or line breaks.
package struct DisplayName: Hashable, Sendable, CustomStringConvertible {
    /// Most characters allowed.
    package static let maxLength = 20

    /// The trimmed name.
    package let value: String

    /// The name `input` stands for, or `.invalidDisplayName`.
    package init(validating input: String) throws(APIError) {
        let trimmed = TextRules.trimmed(input)
        guard (1...Self.maxLength).contains(trimmed.count), !TextRules.hasControlCharacters(trimmed) else {
            throw .invalidDisplayName
        }
        value = trimmed
    }

    package var description: String { value }
}
