import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PongWire

/// Issues and verifies HMAC-SHA256 signed tokens (`AccessToken`). Pure: the caller passes `now`.
package struct TokenSigner: Sendable {
    /// The key's bytes (swift-crypto 3's `SymmetricKey` is not `Sendable`, so it is made per use).
    private let secret: [UInt8]

    /// A signer over `secret`; use at least 32 random bytes, kept across restarts so tokens stay valid.
    package init(secret: [UInt8]) {
        self.secret = secret
    }

    private var key: SymmetricKey { SymmetricKey(data: secret) }

    /// The token text for `token`.
    package func sign(_ token: AccessToken) -> String {
        let payload = Self.encodePayload(token.payload)
        return Base64.urlEncoded(payload) + "." + Base64.urlEncoded(signature(of: payload))
    }

    /// HMAC-SHA256 of `payload` under this signer's key.
    func signature(of payload: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: payload, using: key))
    }

    /// A token for `userId` of `kind`, valid from `now` for `lifetime`.
    package func issue(userId: UserID, kind: AccessToken.Kind, now: Date, lifetime: Duration) -> String {
        let expiry = now.addingTimeInterval(TimeInterval(lifetime.components.seconds))
        return sign(AccessToken(userId: userId, kind: kind, expiresAt: expiry))
    }

    /// The token `text` carries, if it is signed with this key, unexpired at `now`, and of an allowed kind.
    /// The signature is checked (in constant time) before the payload is parsed.
    package func verify(_ text: String, now: Date,
                        allowing kinds: Set<AccessToken.Kind> = Set(AccessToken.Kind.allCases))
        throws(TokenError) -> AccessToken
    {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard text.utf8.count <= 1024, parts.count == 2,
              let payload = Base64.urlDecoded(String(parts[0])),
              let mac = Base64.urlDecoded(String(parts[1])), mac.count == SHA256.byteCount
        else { throw .malformed }
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: payload, using: key) else { throw .forged }
        guard let decoded = try? JSONDecoder().decode(AccessToken.Payload.self, from: Data(payload)) else {
            throw .malformed
        }
        let token = AccessToken(decoded)
        guard now < token.expiresAt else { throw .expired }
        guard kinds.contains(token.kind) else { throw .wrongKind }
        return token
    }

    private static func encodePayload(_ payload: AccessToken.Payload) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Three plain fields always encode; the fallback only keeps this total.
        return (try? Array(encoder.encode(payload))) ?? Array(#"{"e":0,"k":"user","u":""}"#.utf8)
    }
}
