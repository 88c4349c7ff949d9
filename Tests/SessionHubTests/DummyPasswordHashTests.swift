import Testing
@testable import SessionHub

/// The dummy hash unknown emails are checked against is made off the start-up path (a restart of a debug build
/// waited ~5 s for it before it listened: BENCHMARKS.md, "Kill -9 durability").
@Suite("Dummy password hash")
struct DummyPasswordHashTests {
    @Test("made in the background: it is there at once, and value() waits for a real scrypt hash of its parameters")
    func madeInBackground() throws {
        let started = ContinuousClock.now
        let dummy = DummyPasswordHash(parameters: .standard)
        #expect(ContinuousClock.now - started < .milliseconds(500))
        let hash = try dummy.value()
        #expect(hash.hasPrefix("$scrypt$ln=15,r=8,p=1$"))
        #expect(!PasswordHasher(parameters: .standard).verify("any password at all", against: hash))
        #expect(try dummy.value() == hash)
    }
}
