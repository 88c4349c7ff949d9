#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import PongWire

/// A row of `user`: a signed-up account (email and scrypt hash), an account made by a social sign-in (no hash; the
/// provider's verified email when no other account had it), or a guest (neither).
package struct StoredUser: Hashable, Sendable {
    /// Primary key.
    package var id: UserID
    /// The name given at signup (guests: whatever the caller chose, e.g. "Guest").
    package var name: String
    /// Unique, compared case-insensitively; nil for guests (and social accounts without a verified email).
    package var email: String?
    /// `PasswordHasher`'s stored form; nil for guests and social accounts (it needs an email).
    package var passwordHash: String?
    /// Guests are purged when their sessions end.
    package var isGuest: Bool
    /// Creation time (milliseconds).
    package var createdAt: Date

    package init(id: UserID, name: String, email: String?, passwordHash: String?, isGuest: Bool, createdAt: Date) {
        self.id = id
        self.name = name
        self.email = email
        self.passwordHash = passwordHash
        self.isGuest = isGuest
        self.createdAt = StoreTime.rounded(createdAt)
    }

    /// A guest account: no email, no password.
    package static func guest(id: UserID, name: String, createdAt: Date) -> StoredUser {
        StoredUser(id: id, name: name, email: nil, passwordHash: nil, isGuest: true, createdAt: createdAt)
    }
}

extension StoredUser {
    static let columns = "id, name, email, passwordHash, isGuest, createdAt"

    init(row: Row) throws(StoreError) {
        id = UserID(try row.value("id"))
        name = try row.value("name")
        email = try row.value("email")
        passwordHash = try row.value("passwordHash")
        isGuest = try row.value("isGuest")
        createdAt = try row.date("createdAt")
    }

    var arguments: StatementArguments {
        [id.rawValue, name, email, passwordHash, isGuest, StoreTime.milliseconds(createdAt)]
    }
}
