#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PongWire

/// What a signed token says: whose it is, what kind, and until when (whole seconds since 1970, UTC).
///
/// On the wire it is `base64url(payload) "." base64url(HMAC-SHA256(payload))`, the payload being compact JSON
/// `{"e":expiry,"k":"user"|"guest"|"host","u":userId}`. See `TokenSigner`.
package struct AccessToken: Hashable, Sendable {
    /// Who may use the token for what.
    package enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        /// A signed-up user's bearer token.
        case user
        /// A guest's bearer token (no game history kept).
        case guest
        /// A session creator's dashboard token (`hostToken`).
        case host
    }

    /// The account.
    package var userId: UserID
    /// The kind.
    package var kind: Kind
    /// First instant the token is no longer valid.
    package var expiresAt: Date

    package init(userId: UserID, kind: Kind, expiresAt: Date) {
        self.userId = userId
        self.kind = kind
        self.expiresAt = Date(timeIntervalSince1970: expiresAt.timeIntervalSince1970.rounded(.down))
    }

    /// The signed fields in their compact form.
    struct Payload: Codable {
        var u: String
        var k: Kind
        var e: Int64
    }

    var payload: Payload {
        Payload(u: userId.rawValue, k: kind, e: Int64(expiresAt.timeIntervalSince1970))
    }

    init(_ payload: Payload) {
        self.init(userId: UserID(payload.u), kind: payload.k,
                  expiresAt: Date(timeIntervalSince1970: TimeInterval(payload.e)))
    }
}
