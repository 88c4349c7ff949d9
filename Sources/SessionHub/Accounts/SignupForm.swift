import PongWire

/// A checked `POST /auth/signup` body.
package struct SignupForm: Hashable, Sendable {
    /// Most characters of the full name.
    package static let maxNameLength = 100
    /// Most UTF-8 bytes of the full name.
    package static let maxNameBytes = 400

    /// Full name, trimmed (1–100 characters, ≤ 400 bytes, no control or bidi characters, not invisible).
    package let name: String
    /// Normalized email.
    package let email: EmailAddress
    /// The password as typed (to be hashed).
    package let password: String

    /// Checks in the order a phone form shows them: name, email, password, terms.
    package init(validating request: SignupRequest) throws(APIError) {
        guard let name = TextRules.visibleText(request.name, graphemes: Self.maxNameLength, bytes: Self.maxNameBytes)
        else { throw .invalidName }
        self.name = name
        self.email = try EmailAddress(validating: request.email)
        try PasswordPolicy.check(request.password)
        self.password = request.password
        guard request.acceptTerms else { throw .termsNotAccepted }
    }
}
