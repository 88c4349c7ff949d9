import Foundation
@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Signed tokens, password hashes, base64")
struct TokenAndHashTests {
    let signer = TokenSigner(secret: Array("0123456789abcdef0123456789abcdef".utf8))
    let now = Date(timeIntervalSince1970: 1_750_000_000)

    @Test("a token verifies to what was signed, for each kind")
    func roundTrip() throws {
        for kind in AccessToken.Kind.allCases {
            let text = signer.issue(userId: UserID("u-42"), kind: kind, now: now, lifetime: .seconds(3600))
            let token = try signer.verify(text, now: now)
            #expect(token == AccessToken(userId: UserID("u-42"), kind: kind,
                                         expiresAt: now.addingTimeInterval(3600)))
        }
    }

    @Test("the token is base64url payload and signature, the payload compact JSON")
    func shape() throws {
        let text = signer.sign(AccessToken(userId: UserID("u1"), kind: .guest,
                                           expiresAt: Date(timeIntervalSince1970: 2_000_000_000)))
        let parts = text.split(separator: ".")
        #expect(parts.count == 2)
        #expect(text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." })
        let payload = try #require(Base64.urlDecoded(String(parts[0])))
        #expect(String(decoding: payload, as: UTF8.self) == #"{"e":2000000000,"k":"guest","u":"u1"}"#)
    }

    @Test("a tampered payload or signature, or another key, is forged")
    func tampering() throws {
        let text = signer.issue(userId: UserID("u1"), kind: .user, now: now, lifetime: .seconds(60))
        let parts = text.split(separator: ".").map(String.init)
        let otherPayload = Base64.urlEncoded(Array(#"{"e":9999999999,"k":"host","u":"u1"}"#.utf8))
        #expect(throws: TokenError.forged) { try signer.verify(otherPayload + "." + parts[1], now: now) }
        var signature = Array(parts[1])
        signature[3] = signature[3] == "A" ? "B" : "A"
        #expect(throws: TokenError.forged) { try signer.verify(parts[0] + "." + String(signature), now: now) }
        let stranger = TokenSigner(secret: Array("another secret of thirty-two by".utf8))
        #expect(throws: TokenError.forged) { try stranger.verify(text, now: now) }
    }

    @Test("a token is expired from its expiry second on")
    func expiry() throws {
        let text = signer.issue(userId: UserID("u1"), kind: .user, now: now, lifetime: .seconds(60))
        _ = try signer.verify(text, now: now.addingTimeInterval(59.9))
        #expect(throws: TokenError.expired) { try signer.verify(text, now: now.addingTimeInterval(60)) }
        #expect(TokenError.expired.apiError == .tokenExpired)
        #expect(TokenError.forged.apiError == .invalidToken)
    }

    @Test("malformed tokens are refused", arguments: [
        "", ".", "abc", "a.b.c", "abc.", ".abc", "!!!.???", "eyJ9.AAAA", String(repeating: "A", count: 2000),
    ])
    func malformed(text: String) {
        #expect(throws: TokenError.malformed) { try signer.verify(text, now: now) }
    }

    @Test("a signed payload that is not ours is malformed, not a crash")
    func signedGarbage() {
        let payload = Array("not json".utf8)
        let mac = signer.signature(of: payload)
        #expect(throws: TokenError.malformed) {
            try signer.verify(Base64.urlEncoded(payload) + "." + Base64.urlEncoded(mac), now: now)
        }
    }

    @Test("a token of a kind the use does not allow is refused")
    func kinds() throws {
        let player = signer.issue(userId: UserID("u1"), kind: .user, now: now, lifetime: .seconds(60))
        #expect(throws: TokenError.wrongKind) { try signer.verify(player, now: now, allowing: [.host]) }
        _ = try signer.verify(player, now: now, allowing: [.user, .guest])
    }

    @Test("scrypt hashes verify the right password only, with a fresh salt each time")
    func hashing() throws {
        let hasher = PasswordHasher(parameters: .init(logRounds: 10, blockSize: 8, parallelism: 1))
        var random = SeededGenerator(seed: 1)
        let stored = try hasher.hash("correct horse battery", using: &random)
        #expect(stored.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        #expect(hasher.verify("correct horse battery", against: stored))
        #expect(!hasher.verify("correct horse batterz", against: stored))
        #expect(!hasher.verify("", against: stored))
        #expect(try hasher.hash("correct horse battery", using: &random) != stored)
        #expect(!hasher.needsRehash(stored))
        #expect(PasswordHasher().needsRehash(stored))
    }

    @Test("the hash is real scrypt: RFC 7914's test vector verifies")
    func rfcVector() throws {
        let expected: [UInt8] = [
            0xfd, 0xba, 0xbe, 0x1c, 0x9d, 0x34, 0x72, 0x00, 0x78, 0x56, 0xe7, 0x19, 0x0d, 0x01, 0xe9, 0xfe,
            0x7c, 0x6a, 0xd7, 0xcb, 0xc8, 0x23, 0x78, 0x30, 0xe7, 0x73, 0x76, 0x63, 0x4b, 0x37, 0x31, 0x62,
            0x2e, 0xaf, 0x30, 0xd9, 0x2e, 0x22, 0xa3, 0x88, 0x6f, 0xf1, 0x09, 0x27, 0x9d, 0x98, 0x30, 0xda,
            0xc7, 0x27, 0xaf, 0xb9, 0x4a, 0x83, 0xee, 0x6d, 0x83, 0x60, 0xcb, 0xdf, 0xa2, 0xcc, 0x06, 0x40,
        ]
        let stored = "$scrypt$ln=10,r=8,p=16$" + Base64.urlEncoded(Array("NaCl".utf8)) + "$"
            + Base64.urlEncoded(expected)
        #expect(PasswordHasher().verify("password", against: stored))
        #expect(!PasswordHasher().verify("Password", against: stored))
    }

    @Test("malformed or out-of-limit stored hashes never verify", arguments: [
        "", "plain", "$scrypt$ln=10,r=8,p=1$c2FsdHNhbHQ", "$bcrypt$ln=10,r=8,p=1$c2FsdHNhbHQ$AAAAAAAAAAAAAAAAAAAAAA",
        "$scrypt$ln=40,r=8,p=1$c2FsdHNhbHQ$AAAAAAAAAAAAAAAAAAAAAA",
        "$scrypt$ln=10,r=8$c2FsdHNhbHQ$AAAAAAAAAAAAAAAAAAAAAA",
        "$scrypt$ln=x,r=8,p=1$c2FsdHNhbHQ$AAAAAAAAAAAAAAAAAAAAAA", "$scrypt$ln=10,r=8,p=1$!!$AAAAAAAAAAAAAAAAAAAAAA",
    ])
    func badStored(stored: String) {
        #expect(!PasswordHasher().verify("password", against: stored))
    }

    @Test("base64url: RFC 4648 vectors, canonical decoding only")
    func base64() {
        let vectors = [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
                       ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            #expect(Base64.urlEncoded(Array(plain.utf8)) == encoded)
            #expect(Base64.urlDecoded(encoded) == Array(plain.utf8))
        }
        #expect(Base64.urlEncoded([0xFB, 0xFF]) == "-_8")
        #expect(Base64.decoded("Zg==") == Array("f".utf8))
        #expect(Base64.decoded("+/8=") == [0xFB, 0xFF])
        #expect(Base64.urlDecoded("Zh") == nil)
        #expect(Base64.urlDecoded("Zg==") == nil)
        #expect(Base64.decoded("Z") == nil)
        #expect(Base64.decoded("Zm9v!") == nil)
    }

    @Test("standard base64: RFC 4648 vectors with padding, the standard alphabet, and back")
    func base64Standard() {
        let vectors = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
                       ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            #expect(Base64.encoded(Array(plain.utf8)) == encoded)
            #expect(Base64.decoded(encoded) == Array(plain.utf8))
        }
        #expect(Base64.encoded([0xFB, 0xFF]) == "+/8=")
    }
}
