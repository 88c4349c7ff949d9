/// A checked `POST /auth/signup` body.
package struct SignupForm: Hashable, Sendable {
    /// Most characters of the full name.
    package static let maxNameLength = 100

    /// Full name, trimmed (1–100 characters, no control characters).
    package let name: String
    /// Normalized email.
    package let email: EmailAddress
    /// The password as typed (to be hashed).
    package let password: String

    /// Checks in the order a phone form shows them: name, email, password, terms.
    package init(validating request: SignupRequest) throws(APIError) {
        let name = TextRules.trimmed(request.name)
        guard (1...Self.maxNameLength).contains(name.count), !TextRules.hasControlCharacters(name) else {
            throw .invalidName
        }
        self.name = name
        self.email = try EmailAddress(validating: request.email)
        try PasswordPolicy.check(request.password)
        self.password = request.password
        guard request.acceptTerms else { throw .termsNotAccepted }
    }
}
