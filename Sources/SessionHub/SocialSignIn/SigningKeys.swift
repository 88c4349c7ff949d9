import Foundation
import JWTKit
import Logging

/// The keys of a provider's JSON Web Key Set that can verify its ID tokens, by `kid`, each with its algorithm fixed.
///
/// A key is kept when it has a `kid`, is meant for signatures (`use` absent or `sig`), holds no private part, and
/// jwt-kit can make a verifier of it (RSA of 2048 bits or more, EC P-256/384/521, Ed25519). A key without `alg`
/// gets its type's usual one (RSA: RS256, the OpenID Connect default; EC: by curve; OKP: EdDSA), so a token's
/// header can never choose another (jwt-kit would otherwise keep the first `alg` a token asked for).
struct SigningKeys: Sendable {
    /// Most bytes of a key set document: Google's and Apple's are 1–2 KiB.
    static let maxBytes = 64 * 1024
    /// Most keys kept from one document.
    static let maxKeys = 32

    /// The usable keys by `kid`.
    let keys: [String: JWK]
    /// jwt-kit's verifiers of the same keys.
    let collection: JWTKeyCollection

    /// The usable keys of `document`; keys that cannot be used are logged and skipped.
    static func parse(_ document: [UInt8], logger: Logger) async throws(JWKSError) -> SigningKeys {
        guard let set = try? JSONDecoder().decode(LenientKeySet.self, from: Data(document)) else { throw .notJWKS }
        var keys: [String: JWK] = [:]
        let collection = JWTKeyCollection()
        for entry in set.keys {
            guard keys.count < maxKeys else { break }
            guard var key = entry.key, let kid = key.keyIdentifier?.string, !kid.isEmpty, kid.utf8.count <= 256,
                  entry.use == nil || entry.use == "sig", !entry.hasPrivatePart, keys[kid] == nil
            else {
                logger.info("key set entry skipped", metadata: ["jwk.kid": "\(entry.key?.keyIdentifier?.string ?? "")"])
                continue
            }
            key.algorithm = key.algorithm ?? defaultAlgorithm(of: key)
            guard let algorithm = key.algorithm, signatureAlgorithms.contains(algorithm.rawValue) else {
                logger.info("key set entry skipped: not a signature algorithm", metadata: ["jwk.kid": "\(kid)"])
                continue
            }
            do {
                try await collection.add(jwk: key)
                keys[kid] = key
            } catch {
                logger.info("key set entry skipped", metadata: ["jwk.kid": "\(kid)", "error": "\(error)"])
            }
        }
        guard !keys.isEmpty else { throw .noUsableKeys }
        return SigningKeys(keys: keys, collection: collection)
    }

    /// The algorithms an ID token may be signed with.
    static let signatureAlgorithms: Set<String> = [
        "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA",
    ]

    private static func defaultAlgorithm(of key: JWK) -> JWK.Algorithm? {
        switch key.keyType {
        case .rsa: .rs256
        case .ecdsa:
            switch key.curve?.rawValue {
            case "P-256": .es256
            case "P-384": .es384
            case "P-521": .es512
            default: nil
            }
        case .octetKeyPair: .eddsa
        default: nil
        }
    }
}

/// `{"keys":[…]}` where an entry jwt-kit cannot read (an unknown `kty`, a symmetric key) is kept as nil, not a
/// failure of the whole set.
private struct LenientKeySet: Decodable {
    var keys: [Entry]

    struct Entry: Decodable {
        var key: JWK?
        var use: String?
        var hasPrivatePart: Bool

        private enum Field: String, CodingKey { case use, d, p, q, k }

        init(from decoder: any Decoder) throws {
            key = try? JWK(from: decoder)
            let fields = try? decoder.container(keyedBy: Field.self)
            use = try? fields?.decodeIfPresent(String.self, forKey: .use)
            hasPrivatePart = [Field.d, .p, .q, .k].contains { fields?.contains($0) ?? false }
        }
    }
}
