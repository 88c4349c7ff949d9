/// Shared helpers of the account validators.
enum TextRules {
    /// `text` without leading and trailing whitespace (spaces, tabs, newlines, and Unicode spaces).
    static func trimmed(_ text: String) -> String {
        guard let start = text.firstIndex(where: { !$0.isWhitespace }),
              let end = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[start...end])
    }

    /// True when `text` holds a control character or a line/paragraph separator.
    static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: true
            default: false
            }
        }
    }
}
