import PongWire

/// What a new password must be: at least 10 characters, at most 256 characters and 1024 UTF-8 bytes, and not one of
/// the common passwords (compared ignoring case, after trimming surrounding whitespace for the comparison only).
package enum PasswordPolicy {
    /// Fewest characters (grapheme clusters) allowed.
    package static let minimumLength = 10
    /// Most characters (grapheme clusters) allowed.
    package static let maximumLength = 256
    /// Most UTF-8 bytes allowed; logins with a longer password fail without hashing it.
    package static let maximumBytes = 1024

    /// Accepts `password` or throws `.passwordTooLong`, `.passwordTooShort` / `.passwordTooCommon` (both
    /// `weak_password`).
    package static func check(_ password: String) throws(APIError) {
        guard TextRules.fits(password, graphemes: maximumLength, bytes: maximumBytes) else { throw .passwordTooLong }
        guard password.count >= minimumLength else { throw .passwordTooShort }
        guard !isCommon(password) else { throw .passwordTooCommon }
    }

    /// True when `password` is on the built-in list of common passwords.
    package static func isCommon(_ password: String) -> Bool {
        CommonPasswords.set.contains(TextRules.trimmed(password).lowercased())
    }
}
