import PongWire

/// An email address in the syntax signup accepts, normalized to lower case for lookups.
///
/// `local@domain`: ASCII only (no internationalized addresses); local part 1–64 characters of letters, digits and
/// ``!#$%&'*+/=?^_`{|}~.-`` with no leading, trailing or doubled dot; domain of at least two dot-separated labels of
/// letters, digits and inner hyphens (1–63 each), the last all letters and at least 2 long; at most 254 in all.
package struct EmailAddress: Hashable, Sendable, CustomStringConvertible {
    /// Trimmed and lower-cased.
    package let value: String

    /// The address `input` stands for (surrounding whitespace trimmed), or `.invalidEmail`.
    package init(validating input: String) throws(APIError) {
        guard input.utf8.count <= 1024 else { throw .invalidEmail }
        let trimmed = TextRules.trimmed(input)
        guard trimmed.utf8.count <= 254, trimmed.unicodeScalars.allSatisfy(\.isASCII) else { throw .invalidEmail }
        let parts = trimmed.lowercased().split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, Self.isLocalPart(parts[0]), Self.isDomain(parts[1]) else { throw .invalidEmail }
        value = trimmed.lowercased()
    }

    package var description: String { value }

    private static let localSymbols = Set("!#$%&'*+/=?^_`{|}~.-")

    private static func isLocalPart(_ local: Substring) -> Bool {
        (1...64).contains(local.count)
            && local.allSatisfy { $0.isLetter || $0.isNumber || localSymbols.contains($0) }
            && local.first != "." && local.last != "." && !local.contains("..")
    }

    private static func isDomain(_ domain: Substring) -> Bool {
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let top = labels.last, top.count >= 2, top.allSatisfy(\.isLetter) else {
            return false
        }
        return labels.allSatisfy { label in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }
    }
}
