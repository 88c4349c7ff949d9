@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Account rules: names, passwords, emails, photos")
struct AccountRulesTests {
    @Test("display names are trimmed and 1 to 20 characters", arguments: [
        ("Ana", "Ana"), ("  Ana  ", "Ana"), ("\tBo Li\n", "Bo Li"), (String(repeating: "x", count: 20), nil),
        ("Zoë", "Zoë"), ("👨‍👩‍👧‍👦", "👨‍👩‍👧‍👦"), (String(repeating: "🏓", count: 20), nil),
    ])
    func validNames(input: String, expected: String?) throws {
        #expect(try DisplayName(validating: input).value == (expected ?? input))
    }

    @Test("empty, blank, too long, or control characters are invalid_display_name", arguments: [
        "", "   ", "\n\t", String(repeating: "x", count: 21), String(repeating: "🏓", count: 21), "Ana\u{0}",
        "Line\nBreak", "Bell\u{7}",
    ])
    func invalidNames(input: String) {
        #expect(throws: APIError.invalidDisplayName) { try DisplayName(validating: input) }
    }

    @Test("a family emoji counts as one character (and 25 bytes)")
    func graphemes() throws {
        let name = String(repeating: "👨‍👩‍👧‍👦", count: 5)
        #expect(try DisplayName(validating: name).value.count == 5)
        #expect(throws: APIError.invalidDisplayName) { try DisplayName(validating: name + "👨‍👩‍👧‍👦") }
    }

    @Test("passwords need 10 characters", arguments: ["", "short", "123456789", "ninechars"])
    func shortPasswords(password: String) {
        #expect(throws: APIError.passwordTooShort) { try PasswordPolicy.check(password) }
    }

    @Test("common passwords are refused, ignoring case", arguments: [
        "1234567890", "qwertyuiop", "password123", "PASSWORD123", "Qwerty12345", "iloveyou123", "tabletennis",
    ])
    func commonPasswords(password: String) {
        #expect(throws: APIError.passwordTooCommon) { try PasswordPolicy.check(password) }
        #expect(APIError.passwordTooCommon.code == "weak_password")
    }

    @Test("uncommon passwords of 10 characters or more pass", arguments: [
        "correct horse battery", "pl4y-pong-2gether", "ünïcödé-päss",
    ])
    func goodPasswords(password: String) throws {
        try PasswordPolicy.check(password)
    }

    @Test("the common-password list holds a few hundred entries, all lower case")
    func list() {
        #expect(CommonPasswords.list.count >= 300)
        #expect(CommonPasswords.list.allSatisfy { $0 == $0.lowercased() })
        #expect(CommonPasswords.set.count == CommonPasswords.list.count)
    }

    @Test("valid emails are trimmed and lower-cased", arguments: [
        ("ana@example.com", "ana@example.com"), ("  Ana.B+pong@Mail.Example.CO.uk ", "ana.b+pong@mail.example.co.uk"),
        ("o'neil@x-y.io", "o'neil@x-y.io"), ("a@b.cd", "a@b.cd"),
    ])
    func validEmails(input: String, expected: String) throws {
        #expect(try EmailAddress(validating: input).value == expected)
    }

    @Test("malformed emails are invalid_email", arguments: [
        "", "ana", "ana@", "@example.com", "ana@example", "ana@@example.com", "a@b@c.com", ".ana@x.com",
        "ana.@x.com", "a..b@x.com", "ana@-x.com", "ana@x-.com", "ana@x..com", "ana@x.c", "ana@x.c0m", "a b@x.com",
        "ána@x.com", "ana@exämple.com", "ana(x)@x.com", String(repeating: "a", count: 65) + "@x.com",
        "a@" + String(repeating: "b", count: 250) + ".com",
    ])
    func invalidEmails(input: String) {
        #expect(throws: APIError.invalidEmail) { try EmailAddress(validating: input) }
    }

    @Test("signup checks name, email, password, then terms")
    func signup() throws {
        let good = SignupRequest(name: " Ana Li ", email: "Ana@X.com", password: "correct horse", acceptTerms: true)
        let form = try SignupForm(validating: good)
        #expect(form.name == "Ana Li")
        #expect(form.email.value == "ana@x.com")
        var request = good
        request.name = " "
        #expect(throws: APIError.invalidName) { try SignupForm(validating: request) }
        request = good
        request.email = "nope"
        #expect(throws: APIError.invalidEmail) { try SignupForm(validating: request) }
        request = good
        request.password = "password1234"
        #expect(throws: APIError.passwordTooCommon) { try SignupForm(validating: request) }
        request = good
        request.acceptTerms = false
        #expect(throws: APIError.termsNotAccepted) { try SignupForm(validating: request) }
    }

    @Test("photos: JPEG and PNG, as base64 or a data URL with line breaks")
    func photos() throws {
        let jpeg = try PhotoFixtures.file("photo_64x48.jpg")
        let png = PhotoFixtures.png(width: 4, height: 3)
        #expect(try ProfilePhoto(base64: Base64.encoded(jpeg)).format == .jpeg)
        var wrapped = Base64.encoded(png)
        wrapped.insert("\n", at: wrapped.index(wrapped.startIndex, offsetBy: 8))
        #expect(try ProfilePhoto(base64: "data:image/png;base64," + wrapped).bytes == png)
        #expect(throws: APIError.invalidPhoto) { try ProfilePhoto(base64: "/9j/4AAQ") }  // JPEG magic, nothing else
        #expect(throws: APIError.invalidPhoto) { try ProfilePhoto(base64: "R0lGODlh") }  // GIF
        #expect(throws: APIError.invalidPhoto) { try ProfilePhoto(base64: "not base64!") }
        #expect(throws: APIError.invalidPhoto) { try ProfilePhoto(base64: "data:image/png,rawdata") }
        let huge = String(repeating: "A", count: 3_000_000)
        #expect(throws: APIError.photoTooLarge) { try ProfilePhoto(base64: "/9j/" + huge) }
    }
}
