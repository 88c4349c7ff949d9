@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Text rules: limits in characters and bytes, bidi controls, invisible names")
struct TextRulesTests {
    /// One letter under `marks` combining acute accents: one character, 1 + 2 · marks bytes.
    private func zalgo(_ marks: Int) -> String {
        "a" + String(repeating: "\u{0301}", count: marks)
    }

    @Test("one character of a million combining marks (2 MB) is not a display name")
    func hugeGrapheme() {
        let name = zalgo(1_000_000)
        #expect(name.count == 1)
        #expect(name.utf8.count > 2_000_000)
        #expect(throws: APIError.invalidDisplayName) { try DisplayName(validating: name) }
    }

    @Test("display names are bounded in bytes as well as characters")
    func bytes() throws {
        #expect(try DisplayName(validating: zalgo(60)).value.utf8.count == 121)
        #expect(throws: APIError.invalidDisplayName) { try DisplayName(validating: zalgo(64)) }
        #expect(try DisplayName(validating: String(repeating: "🏓", count: 20)).value.count == 20)
        #expect(try DisplayName(validating: "नमस्ते दुनिया").value == "नमस्ते दुनिया")
    }

    @Test("bidi controls are refused in names", arguments: [
        "Ana\u{202E}gpj.exe", "\u{202A}Bo", "x\u{202B}", "x\u{202C}", "x\u{202D}", "\u{2066}Li\u{2069}", "x\u{2067}",
        "x\u{2068}", "Ana\u{200E}", "Ana\u{200F}", "Ana\u{061C}",
    ])
    func bidi(input: String) {
        #expect(throws: APIError.invalidDisplayName) { try DisplayName(validating: input) }
        let form = SignupRequest(name: input, email: "a@b.cd", password: "correct horse battery", acceptTerms: true)
        #expect(throws: APIError.invalidName) { try SignupForm(validating: form) }
    }

    @Test("names made only of invisible characters are blank", arguments: [
        "\u{200B}", "\u{200B}\u{200C}\u{200D}", "\u{FEFF}", "\u{2060}", "\u{3164}", "\u{115F}\u{1160}", " \u{200B} ",
        "\u{0301}\u{0302}", "\u{00A0}\u{2003}", "\u{180E}", "\u{034F}",
    ])
    func invisible(input: String) {
        #expect(throws: APIError.invalidDisplayName) { try DisplayName(validating: input) }
    }

    @Test("visible names with joiners or marks pass", arguments: ["Zoë", "e\u{0301}", "👩‍💻", "李雷", "O'Neil-Smith"])
    func visible(input: String) throws {
        #expect(try DisplayName(validating: input).value == input)
    }

    @Test("signup names: 100 characters and 400 bytes")
    func signupName() throws {
        func form(_ name: String) -> SignupRequest {
            SignupRequest(name: name, email: "a@b.cd", password: "correct horse battery", acceptTerms: true)
        }
        #expect(try SignupForm(validating: form(String(repeating: "x", count: 100))).name.count == 100)
        #expect(throws: APIError.invalidName) { try SignupForm(validating: form(zalgo(250))) }
        #expect(throws: APIError.invalidName) { try SignupForm(validating: form("\u{200B}\u{200B}")) }
    }

    @Test("passwords: at most 256 characters and 1024 bytes")
    func passwords() throws {
        try PasswordPolicy.check(String(repeating: "p", count: 256))
        #expect(throws: APIError.passwordTooLong) { try PasswordPolicy.check(String(repeating: "p", count: 257)) }
        #expect(throws: APIError.passwordTooLong) { try PasswordPolicy.check("pingpong" + zalgo(600)) }
    }

    @Test("emails: a huge input is refused before it is trimmed")
    func emails() {
        #expect(throws: APIError.invalidEmail) {
            try EmailAddress(validating: String(repeating: " ", count: 2_000_000) + "a@b.cd")
        }
    }

    @Test("an unknown type is echoed at most 40 scalars long")
    func unknownTypeEcho() {
        let error = APIError.unknownType(zalgo(60_000))
        #expect(error.message.utf8.count < 200)
    }

    @Test("a resume token over 128 bytes is invalid_field")
    func resumeToken() throws {
        let text = #"{"type":"hello","resumeToken":"\#(String(repeating: "a", count: 129))"}"#
        do {
            _ = try MessageCodec.decodeClientMessage(Array(text.utf8))
            Issue.record("accepted a 129-byte resume token")
        } catch {
            #expect(error.apiError.code == "invalid_field")
        }
    }
}
