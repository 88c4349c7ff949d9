import Foundation
import Logging
import Testing
@testable import SessionHub

/// `IDTokenVerifier` against a local issuer made by the tests (`TestIssuer`), on an injected clock: what a valid ID
/// token proves, and every way a token is refused (issue 14, item 3).
@Suite("ID token verification")
struct IDTokenVerifierTests {
    /// A verifier of the test issuer over a key set file holding `kids` (and the EC key), on `clock`.
    static func verifier(_ kids: [String] = ["k1"], clock: TestWallClock = TestWallClock())
        throws -> (IDTokenVerifier, path: String)
    {
        let path = try TestIssuer.writeKeySet(TestIssuer.jwks(kids, ec: true))
        let verifier = IDTokenVerifier(provider: TestIssuer.provider(.file(path)), now: { clock.now },
                                       logger: Logger(label: "test"))
        return (verifier, path)
    }

    /// The error `token` is refused with, nil when it is accepted.
    static func refusal(_ verifier: IDTokenVerifier, _ token: String) async -> SocialSignInError? {
        do {
            _ = try await verifier.verify(token)
            return nil
        } catch {
            return error
        }
    }

    @Test("a valid RS256 token proves its subject; the email only when email_verified is true (or \"true\")")
    func valid() async throws {
        let clock = TestWallClock()
        let (verifier, _) = try Self.verifier(clock: clock)
        var claims = TestIssuer.claims(now: clock.now)
        claims.email = "Ana@Example.com"
        claims.emailVerified = .bool(true)
        claims.name = "Ana"
        let identity = try await verifier.verify(try await TestIssuer.sign(claims))
        #expect(identity == VerifiedIdentity(provider: "test", subject: "user-1", verifiedEmail: "Ana@Example.com",
                                             name: "Ana"))
        claims.emailVerified = .text("true")
        #expect(try await verifier.verify(try await TestIssuer.sign(claims)).verifiedEmail == "Ana@Example.com")
        claims.emailVerified = .bool(false)
        #expect(try await verifier.verify(try await TestIssuer.sign(claims)).verifiedEmail == nil)
        claims.emailVerified = nil
        #expect(try await verifier.verify(try await TestIssuer.sign(claims)).verifiedEmail == nil)
    }

    @Test("an ES256 token of the EC key verifies too")
    func ecdsa() async throws {
        let clock = TestWallClock()
        let (verifier, _) = try Self.verifier(clock: clock)
        let token = try await TestIssuer.signEC(TestIssuer.claims(now: clock.now, subject: "ec-user"))
        #expect(try await verifier.verify(token).subject == "ec-user")
    }

    @Test("wrong issuer, wrong or extra audience, expired, issued or valid only in the future: refused, each with its reason")
    func claims() async throws {
        let clock = TestWallClock()
        let (verifier, _) = try Self.verifier(clock: clock)
        let now = clock.now
        var claims = TestIssuer.claims(now: now)
        claims.iss = "https://evil.test"
        #expect(await Self.refusal(verifier, try await TestIssuer.sign(claims)) == .wrongIssuer("https://evil.test"))
        claims = TestIssuer.claims(now: now)
        claims.aud = .one("another-app")
        #expect(await Self.refusal(verifier, try await TestIssuer.sign(claims)) == .wrongAudience(["another-app"]))
        claims.aud = .many([TestIssuer.audience, "another-app"])
        #expect(await Self.refusal(verifier, try await TestIssuer.sign(claims))
                == .wrongAudience([TestIssuer.audience, "another-app"]), "an audience the app does not trust")
        claims.aud = .many([TestIssuer.audience])
        #expect(await Self.refusal(verifier, try await TestIssuer.sign(claims)) == nil, "aud as a one-item array")
        claims = TestIssuer.claims(now: now)
        claims.exp = now.addingTimeInterval(-61)
        #expect(await Self.refusal(verifier, try await TestIssuer.sign(claims)) == .expired)
        claims.exp = now.addingTimeInterval(-30)
        #expect(await Self.refusal(verifier, try await TestIssuer.sign(claims)) == nil, "within the 60 s leeway")
        claims = TestIssuer.claims(now: now)
        claims.iat = now.addingTimeInterval(120)
        #expect(await Self.refusal(verifier, try await TestIssuer.sign(claims)) == .notYetValid)
        claims = TestIssuer.claims(now: now)
        claims.nbf = now.addingTimeInterval(120)
        #expect(await Self.refusal(verifier, try await TestIssuer.sign(claims)) == .notYetValid)
        claims.nbf = now.addingTimeInterval(30)
        #expect(await Self.refusal(verifier, try await TestIssuer.sign(claims)) == nil, "nbf within the leeway")
        // The same token, valid now, expires on the injected clock.
        let token = try await TestIssuer.sign(TestIssuer.claims(now: now))
        #expect(await Self.refusal(verifier, token) == nil)
        clock.advance(by: 3600 + 61)
        #expect(await Self.refusal(verifier, token) == .expired)
    }

    @Test("another key behind a known kid, alg none, HS256 keyed with the public key set, RS384 on an RS256 key: refused")
    func forgeries() async throws {
        let clock = TestWallClock()
        let (verifier, _) = try Self.verifier(clock: clock)
        let claims = TestIssuer.claims(now: clock.now)
        #expect(await Self.refusal(verifier, try await TestIssuer.sign(claims, key: "k2", kid: "k1")) == .badSignature)
        #expect(await Self.refusal(verifier, try await TestIssuer.unsigned(claims)) == .algorithm("none"))
        #expect(await Self.refusal(verifier, try await TestIssuer.hmacWithPublicKey(claims)) == .algorithm("HS256"))
        #expect(await Self.refusal(verifier, try await TestIssuer.sign(claims, digest: .sha384)) == .algorithm("RS384"))
        // A valid token with one signature byte changed.
        var token = Array(try await TestIssuer.sign(claims).utf8)
        token[token.count - 5] = token[token.count - 5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(await Self.refusal(verifier, String(decoding: token, as: UTF8.self)) == .badSignature)
    }

    @Test("malformed tokens and claims are refused without a crash")
    func malformed() async throws {
        let clock = TestWallClock()
        let (verifier, _) = try Self.verifier(clock: clock)
        for text in ["", "abc", "a.b.c", "a.b", "....", "bnVsbA.e30.", String(repeating: "x", count: 9000)] {
            let refusal = await Self.refusal(verifier, text)
            guard case .malformed = refusal else {
                Issue.record("\(text.prefix(40)): \(String(describing: refusal))")
                continue
            }
        }
        #expect(await Self.refusal(verifier, "eyJhbGciOiJSUzI1NiJ9.e30.") == .unknownKey("(none)"), "no kid")
        var claims = TestIssuer.claims(now: clock.now)
        claims.sub = nil
        guard case .malformed = await Self.refusal(verifier, try await TestIssuer.sign(claims)) else {
            Issue.record("a token without sub")
            return
        }
        claims = TestIssuer.claims(now: clock.now)
        claims.iat = nil
        guard case .malformed = await Self.refusal(verifier, try await TestIssuer.sign(claims)) else {
            Issue.record("a token without iat")
            return
        }
    }

    @Test("an unknown kid reloads the key set, at most once a minute: a rotated key works after the minute")
    func rotation() async throws {
        let clock = TestWallClock()
        let (verifier, path) = try Self.verifier(["k1"], clock: clock)
        let claims = TestIssuer.claims(now: clock.now)
        #expect(try await verifier.verify(try await TestIssuer.sign(claims)).subject == "user-1")
        #expect(await verifier.keys.loads == 1)
        let rotated = try await TestIssuer.sign(claims, key: "k2")
        #expect(await Self.refusal(verifier, rotated) == .unknownKey("k2"))
        // The provider rotates: k2 appears in the set; within the minute it is not read again.
        _ = try TestIssuer.writeKeySet(TestIssuer.jwks(["k1", "k2"]), to: path)
        clock.advance(by: 30)
        #expect(await Self.refusal(verifier, rotated) == .unknownKey("k2"))
        #expect(await verifier.keys.loads == 1, "one load a minute, however many unknown kids")
        clock.advance(by: 31)
        #expect(await Self.refusal(verifier, rotated) == nil)
        #expect(await verifier.keys.loads == 2)
        #expect(await Self.refusal(verifier, try await TestIssuer.sign(TestIssuer.claims(now: clock.now))) == nil)
        #expect(await verifier.keys.loads == 2, "a known kid loads nothing")
        // An hour on, the set is read again before use: a key the provider withdrew stops working.
        _ = try TestIssuer.writeKeySet(TestIssuer.jwks(["k2"]), to: path)
        clock.advance(by: 3600)
        #expect(await Self.refusal(verifier, try await TestIssuer.sign(TestIssuer.claims(now: clock.now)))
                == .unknownKey("k1"))
        #expect(await verifier.keys.loads == 3)
    }

    @Test("key set entries that cannot verify ID tokens are skipped; a set with none, or over 64 KiB, loads nothing")
    func keySetEntries() async throws {
        let clock = TestWallClock()
        let junk = [#"{"kty":"oct","kid":"h1","k":"c2VjcmV0"}"#, #"{"kty":"RSA","kid":"enc","use":"enc","n":"AQAB","e":"AQAB"}"#,
                    #"{"kty":"EC","kid":"no-alg","crv":"P-999","x":"AA","y":"AA"}"#, #"17"#, #"{"kid":"x"}"#]
        let path = try TestIssuer.writeKeySet(TestIssuer.jwks(["k1"], withoutAlg: true, extra: junk))
        let verifier = IDTokenVerifier(provider: TestIssuer.provider(.file(path)), now: { clock.now },
                                       logger: Logger(label: "test"))
        #expect(await Self.refusal(verifier, try await TestIssuer.sign(TestIssuer.claims(now: clock.now))) == nil,
                "an RSA key without alg is taken as RS256")
        #expect(await Self.refusal(verifier, try await TestIssuer.sign(TestIssuer.claims(now: clock.now), digest: .sha512))
                == .algorithm("RS512"), "and only RS256")
        let empty = try TestIssuer.writeKeySet(#"{"keys":["# + junk.joined(separator: ",") + "]}")
        let none = IDTokenVerifier(provider: TestIssuer.provider(.file(empty)), now: { clock.now },
                                   logger: Logger(label: "test"))
        #expect(await Self.refusal(none, try await TestIssuer.sign(TestIssuer.claims(now: clock.now)))
                == .keysUnavailable(retryAfter: 60))
        let huge = try TestIssuer.writeKeySet(TestIssuer.jwks(["k1"]) + String(repeating: " ", count: 65 * 1024))
        let tooLarge = IDTokenVerifier(provider: TestIssuer.provider(.file(huge)), now: { clock.now },
                                       logger: Logger(label: "test"))
        guard case .keysUnavailable = await Self.refusal(tooLarge, try await TestIssuer.sign(TestIssuer.claims())) else {
            Issue.record("a key set over 64 KiB was read")
            return
        }
    }

    @Test("--oidc-provider's value: keys, repeated issuers and audiences, defaults; mistakes say what is wrong")
    func option() throws {
        let google = try OIDCProvider(option: "id=google,issuer=https://accounts.google.com,issuer=accounts.google.com,"
            + "audience=web-id,audience=ios-id,jwks=https://www.googleapis.com/oauth2/v3/certs")
        #expect(google == OIDCProvider(id: "google", name: "Google",
                                       issuers: ["https://accounts.google.com", "accounts.google.com"],
                                       audiences: ["web-id", "ios-id"],
                                       keys: .url(URL(string: "https://www.googleapis.com/oauth2/v3/certs")!)))
        let local = try OIDCProvider(option: "id=my-idp,name=My IdP,issuer=http://127.0.0.1:9/,audience=a,jwks=/etc/jwks.json")
        #expect(local.name == "My IdP" && local.keys == .file("/etc/jwks.json"))
        #expect(try OIDCProvider(option: "id=acme,issuer=i,audience=a,jwks=k.json").name == "Acme")
        #expect(try OIDCProvider(option: "id=x,issuer=i,audience=a,jwks=http://localhost:8/k").keys
                == .url(URL(string: "http://localhost:8/k")!))
        #expect(google.authorizationURL == nil, "no authorize=: no button on the pages")
        let apple = try OIDCProvider(option: "id=apple,issuer=https://appleid.apple.com,audience=com.example.web,"
            + "jwks=https://appleid.apple.com/auth/keys,authorize=https://appleid.apple.com/auth/authorize")
        #expect(apple.authorizationURL == URL(string: "https://appleid.apple.com/auth/authorize")!)
        #expect(try OIDCProvider(option: "id=x,issuer=i,audience=a,jwks=k,authorize=http://127.0.0.1:9/authorize")
                .authorizationURL == URL(string: "http://127.0.0.1:9/authorize")!)
        let mistakes = [
            "issuer=i,audience=a,jwks=k": "id must be",
            "id=Google,issuer=i,audience=a,jwks=k": "id must be",
            "id=g,audience=a,jwks=k": "issuer is missing",
            "id=g,issuer=i,jwks=k": "audience is missing",
            "id=g,issuer=i,audience=a": "jwks is missing",
            "id=g,issuer=i,audience=a,jwks=k,jwks=l": "more than once",
            "id=g,issuer=i,audience=a,jwks=http://example.com/k": "loopback",
            "id=g,issuer=i,audience=a,jwks=ftp://example.com/k": "https URL or a file path",
            "id=g,issuer=i,audience=a,jwks=k,colour=red": "unknown key",
            "id=g,issuer,audience=a,jwks=k": "not key=value",
            "id=g,issuer=,audience=a,jwks=k": "issuer is empty",
            "id=g,issuer=i,audience=a,jwks=k,authorize=http://example.com/auth": "loopback",
            "id=g,issuer=i,audience=a,jwks=k,authorize=/auth": "not a URL",
            "id=g,issuer=i,audience=a,jwks=k,authorize=https://a.test/x,authorize=https://b.test/x": "more than once",
        ]
        for (option, expected) in mistakes {
            do {
                _ = try OIDCProvider(option: option)
                Issue.record("\(option) was accepted")
            } catch {
                #expect(error.description.contains(expected), "\(option): \(error.description)")
            }
        }
    }
}
