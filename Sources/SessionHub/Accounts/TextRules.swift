/// Shared helpers of the account validators: trimming, limits in characters and bytes, and the characters a
/// client-supplied text may not hold (docs/SECURITY-accounts.md, "Text fields").
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

    /// True when `text` holds a bidirectional control: the embeddings and overrides U+202A–U+202E, the isolates
    /// U+2066–U+2069, the marks U+200E/U+200F and the Arabic letter mark U+061C. They reorder what follows them in
    /// a lobby ("Trojan Source"), so names carry none.
    static func hasBidiControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
            default: false
            }
        }
    }

    /// True when nothing of `text` would show: it holds only whitespace, format characters (zero-width space,
    /// joiners, U+FEFF …), other default-ignorable code points (the Hangul fillers) and combining marks.
    static func isInvisible(_ text: String) -> Bool {
        !text.unicodeScalars.contains { scalar in
            let properties = scalar.properties
            switch properties.generalCategory {
            case .format, .nonspacingMark, .enclosingMark, .spaceSeparator, .control, .lineSeparator,
                 .paragraphSeparator:
                return false
            default:
                return !properties.isWhitespace && !properties.isDefaultIgnorableCodePoint
            }
        }
    }

    /// True when `text` has at most `graphemes` characters and `bytes` UTF-8 bytes. The byte count is read first
    /// (it is O(1) for native strings), so a huge text is refused without walking its grapheme clusters.
    static func fits(_ text: String, graphemes: Int, bytes: Int) -> Bool {
        text.utf8.count <= bytes && text.count <= graphemes
    }

    /// The trimmed `input` if it is 1…`graphemes` characters and at most `bytes` UTF-8 bytes, holds no control or
    /// bidi characters and is not invisible; nil otherwise. An input far over the byte limit is refused before it
    /// is trimmed.
    static func visibleText(_ input: String, graphemes: Int, bytes: Int) -> String? {
        guard input.utf8.count <= bytes * 4 + 1024 else { return nil }
        let text = trimmed(input)
        guard !text.isEmpty, fits(text, graphemes: graphemes, bytes: bytes), !hasControlCharacters(text),
              !hasBidiControls(text), !isInvisible(text)
        else { return nil }
        return text
    }
}
