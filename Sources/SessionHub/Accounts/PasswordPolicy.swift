/// What a new password must be: at least 10 characters, and not one of the common passwords (compared ignoring
/// case, after trimming surrounding whitespace for the comparison only).
package enum PasswordPolicy {
    /// Fewest characters (grapheme clusters) allowed.
    package static let minimumLength = 10

    /// Accepts `password` or throws `.passwordTooShort` / `.passwordTooCommon` (both `weak_password`).
    package static func check(_ password: String) throws(APIError) {
        guard password.count >= minimumLength else { throw .passwordTooShort }
        guard !isCommon(password) else { throw .passwordTooCommon }
    }

    /// True when `password` is on the built-in list of common passwords.
    package static func isCommon(_ password: String) -> Bool {
        CommonPasswords.set.contains(TextRules.trimmed(password).lowercased())
    }
}
