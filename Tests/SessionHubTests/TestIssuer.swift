import _CryptoExtras
import Foundation
import JWTKit
@testable import SessionHub

/// A local OpenID Connect issuer made by the tests: RSA and EC signing keys, its JWKS document, and ID tokens signed
/// with any of them (or forged: `alg` none, HS256 keyed with the public key set).
struct TestIssuer: Sendable {
    static let issuer = "https://issuer.test"
    static let audience = "pongd-test-client"

    /// RSA keys by kid (2048 bits; made once, generating them takes a moment).
    static let rsaKeys: [String: JWTKit.Insecure.RSA.PrivateKey] = {
        var keys: [String: JWTKit.Insecure.RSA.PrivateKey] = [:]
        for kid in ["k1", "k2"] {
            keys[kid] = try! JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        }
        return keys
    }()
    static let ecKey = ES256PrivateKey()

    /// A JWKS document of the RSA keys `kids` (public parts, `alg` RS256 unless `withoutAlg`) and, with `ec`, the
    /// EC key as `e1`; `extra` entries are added as they are.
    static func jwks(_ kids: [String], ec: Bool = false, withoutAlg: Bool = false, extra: [String] = []) -> String {
        var entries = kids.map { kid -> String in
            let (modulus, exponent) = try! rsaKeys[kid]!.publicKey.getKeyPrimitives()
            let alg = withoutAlg ? "" : #","alg":"RS256""#
            return #"{"kty":"RSA","kid":"\#(kid)","use":"sig"\#(alg),"n":"\#(modulus.base64URL)","e":"\#(exponent.base64URL)"}"#
        }
        if ec, let (x, y) = ecKey.parameters {
            entries.append(#"{"kty":"EC","kid":"e1","crv":"P-256","alg":"ES256","x":"\#(x)","y":"\#(y)"}"#)
        }
        return #"{"keys":["# + (entries + extra).joined(separator: ",") + "]}"
    }

    /// Claims with the issuer, audience, a subject and times around `now` (valid for an hour).
    static func claims(now: Date = Date(), subject: String = "user-1") -> Claims {
        Claims(iss: issuer, sub: subject, aud: .one(audience), exp: now.addingTimeInterval(3600), iat: now)
    }

    /// `claims` signed with RSA key `key` (RS256 unless `digest` says otherwise), its header naming `kid`.
    static func sign(_ claims: Claims, key: String = "k1", kid: String? = nil,
                     digest: DigestAlgorithm = .sha256) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(rsa: rsaKeys[key]!, digestAlgorithm: digest, kid: JWKIdentifier(string: kid ?? key))
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid ?? key))
    }

    /// `claims` signed with the EC key, kid `e1`.
    static func signEC(_ claims: Claims) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: ecKey, kid: "e1")
        return try await keys.sign(claims, kid: "e1")
    }

    /// `claims` with `alg` none and an empty signature, kid `k1`.
    static func unsigned(_ claims: Claims) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.addUnsecuredNone(kid: "k1")
        return try await keys.sign(claims, kid: "k1")
    }

    /// `claims` as HS256 keyed with the JWKS text (the public key set): the algorithm-confusion forgery, kid `k1`.
    static func hmacWithPublicKey(_ claims: Claims) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: jwks(["k1"])), digestAlgorithm: .sha256, kid: "k1")
        return try await keys.sign(claims, kid: "k1")
    }

    /// The claims of a test ID token; every field may be changed or left out.
    struct Claims: JWTPayload {
        enum Audience: Sendable { case one(String), many([String]) }
        enum Verified: Sendable { case bool(Bool), text(String) }

        var iss: String?
        var sub: String?
        var aud: Audience?
        var exp: Date?
        var iat: Date?
        var nbf: Date?
        var email: String?
        var emailVerified: Verified?
        var name: String?
        var nonce: String?

        func verify(using algorithm: some JWTAlgorithm) async throws {}

        private enum Keys: String, CodingKey {
            case iss, sub, aud, exp, iat, nbf, email, name, nonce
            case emailVerified = "email_verified"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encodeIfPresent(iss, forKey: .iss)
            try container.encodeIfPresent(sub, forKey: .sub)
            switch aud {
            case .one(let value): try container.encode(value, forKey: .aud)
            case .many(let values): try container.encode(values, forKey: .aud)
            case nil: break
            }
            try container.encodeIfPresent(exp.map { Int($0.timeIntervalSince1970) }, forKey: .exp)
            try container.encodeIfPresent(iat.map { Int($0.timeIntervalSince1970) }, forKey: .iat)
            try container.encodeIfPresent(nbf.map { Int($0.timeIntervalSince1970) }, forKey: .nbf)
            try container.encodeIfPresent(email, forKey: .email)
            switch emailVerified {
            case .bool(let value): try container.encode(value, forKey: .emailVerified)
            case .text(let value): try container.encode(value, forKey: .emailVerified)
            case nil: break
            }
            try container.encodeIfPresent(name, forKey: .name)
            try container.encodeIfPresent(nonce, forKey: .nonce)
        }

        init(iss: String?, sub: String?, aud: Audience?, exp: Date?, iat: Date?) {
            self.iss = iss
            self.sub = sub
            self.aud = aud
            self.exp = exp
            self.iat = iat
        }

        init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "tests only sign these"))
        }
    }

    /// A provider of this issuer whose key set is `source`.
    static func provider(_ source: JWKSSource, id: String = "test") -> OIDCProvider {
        OIDCProvider(id: id, name: "Test", issuers: [issuer], audiences: [audience], keys: source)
    }

    /// Writes `document` to a new temporary file and returns its path.
    static func writeKeySet(_ document: String, to path: String? = nil) throws -> String {
        let file = path ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("pongd-jwks-\(UUID().uuidString).json").path
        try document.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
}

extension Data {
    /// base64url without padding.
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
