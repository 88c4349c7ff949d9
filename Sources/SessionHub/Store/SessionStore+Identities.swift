import GRDB
import PongWire

/// What a social sign-in did to the accounts (logged).
package enum SocialAccountOutcome: String, Hashable, Sendable {
    /// The identity signed in before: its account.
    case returning
    /// First sign-in with this identity, whose verified email is a signed-up account's: linked to that account.
    case linked
    /// First sign-in, no account to link: a new account.
    case created
}

extension SessionStore {
    /// The account of a verified social identity, in one transaction: the account the identity (`provider` +
    /// `subject`) signed in to before; else, when `verifiedEmail` is a signed-up (non-guest) account's, that
    /// account, linked to the identity; else `newUser`, stored with `verifiedEmail` when no account has it, and
    /// linked.
    package func socialAccount(provider: String, subject: String, verifiedEmail: String?, newUser: StoredUser)
        throws(StoreError) -> (user: UserID, outcome: SocialAccountOutcome)
    {
        try write { db in
            if let known = try String.fetchOne(
                db, sql: "SELECT userId FROM identity WHERE provider = ? AND subject = ?", arguments: [provider, subject])
            {
                return (UserID(known), .returning)
            }
            let link = "INSERT INTO identity (provider, subject, userId, createdAt) VALUES (?, ?, ?, ?)"
            let now = StoreTime.milliseconds(newUser.createdAt)
            var user = newUser
            if let verifiedEmail {
                let owner = try Row.fetchOne(db, sql: "SELECT id, isGuest FROM user WHERE email = ?",
                                             arguments: [verifiedEmail])
                if let owner, let id: String = owner["id"], owner["isGuest"] == false {
                    try db.execute(sql: link, arguments: [provider, subject, id, now])
                    return (UserID(id), .linked)
                }
                user.email = owner == nil ? verifiedEmail : nil
            }
            try db.execute(sql: "INSERT INTO user (\(StoredUser.columns)) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: user.arguments)
            try db.execute(sql: link, arguments: [provider, subject, user.id.rawValue, now])
            return (user.id, .created)
        }
    }

    /// The providers and subjects that sign in to `user`, sorted.
    package func identities(of user: UserID) throws(StoreError) -> [(provider: String, subject: String)] {
        try fetchAll(sql: "SELECT provider, subject FROM identity WHERE userId = ? ORDER BY provider, subject",
                     arguments: [user.rawValue]) { row throws(StoreError) in
            (try row.value("provider") as String, try row.value("subject") as String)
        }
    }
}
