@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Session codes")
struct SessionCodeTests {
    @Test("user input is accepted case-insensitively, with or without the dash, spaces trimmed", arguments: [
        "ABC234", "abc234", "ABC-234", "abc-234", "  aBc-234 ", "\tABC234\n",
    ])
    func accepted(input: String) {
        #expect(SessionCode(userInput: input)?.value == "ABC234")
    }

    @Test("anything else is rejected", arguments: [
        "", "ABC23", "ABC2345", "AB-C234", "ABC--234", "ABC 234", "ABC_234", "0BC234", "OBC234", "1BC234",
        "IBC234", "ABC-23", "ÄBC234", "ＡBC234", "ABC234-", "-ABC234", "ABC·234",
    ])
    func rejected(input: String) {
        #expect(SessionCode(userInput: input) == nil)
    }

    @Test("the display form puts a dash after the third character")
    func display() {
        #expect(SessionCode(userInput: "xyz789")?.displayCode == "XYZ-789")
    }

    @Test("generated codes are 6 characters of the alphabet and repeat for the same seed")
    func generation() throws {
        var first = SeededGenerator(seed: 7)
        var second = SeededGenerator(seed: 7)
        let codes = (0..<200).compactMap { _ in SessionCode.generate(using: &first, avoiding: []) }
        #expect(codes.count == 200)
        for code in codes {
            #expect(code.value.count == 6)
            #expect(code.value.allSatisfy { SessionCode.alphabet.contains($0) })
        }
        #expect(SessionCode.generate(using: &second, avoiding: []) == codes[0])
        #expect(Set(codes).count > 190)
    }

    @Test("generation skips codes that are live")
    func uniqueness() throws {
        var random = SeededGenerator(seed: 99)
        let taken = try #require(SessionCode.generate(using: &random, avoiding: []))
        var again = SeededGenerator(seed: 99)
        let fresh = try #require(SessionCode.generate(using: &again, avoiding: [taken]))
        #expect(fresh != taken)
    }

    @Test("generation gives up (nil) when every draw collides")
    func exhausted() throws {
        var constant = ConstantGenerator()
        let only = try #require(SessionCode.generate(using: &constant, avoiding: []))
        #expect(SessionCode.generate(using: &constant, avoiding: [only], attempts: 10) == nil)
    }
}
