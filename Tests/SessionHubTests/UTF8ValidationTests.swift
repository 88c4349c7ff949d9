import Testing
@testable import SessionHub

/// `UTF8Validation`: the incremental UTF-8 check of a fragmented text's pieces.
struct UTF8ValidationTests {
    /// Feeds `pieces` one after another; whether they were all accepted, and whether they end on a whole code point.
    private func feed(_ pieces: [[UInt8]]) -> (accepted: Bool, complete: Bool) {
        var validation = UTF8Validation()
        let accepted = pieces.allSatisfy { validation.add($0) }
        return (accepted, validation.isComplete)
    }

    private static let kosme = Array("κόσμε €𝄞".utf8)

    @Test("valid text split at every byte is accepted piece by piece", arguments: 0...kosme.count)
    func splitAnywhere(at index: Int) {
        #expect(feed([Array(Self.kosme[..<index]), Array(Self.kosme[index...])]) == (true, true))
    }

    @Test("a sequence cut short is accepted but not complete") func cutShort() {
        #expect(feed([[0xCE, 0xBA, 0xE2, 0x82]]) == (true, false))
    }

    @Test("invalid bytes fail at once, whatever follows", arguments: [
        [0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80], [0xED, 0xA0], [0xF0, 0x8F], [0xF4, 0x90], [0xF5], [0xFF],
        [0xCE, 0x41], [0xF4, 0x90, 0x80, 0x80],
    ] as [[UInt8]])
    func invalid(_ bytes: [UInt8]) {
        #expect(feed([bytes, Array("ok".utf8)]) == (false, false))
    }

    @Test("once failed, it stays failed") func sticky() {
        var validation = UTF8Validation()
        validation.add([0xFF])
        #expect(!validation.add(Array("ok".utf8)) && validation.failed)
    }
}
