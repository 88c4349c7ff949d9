import PongWire
import PostgresNIO

extension PostgresStore {
    package func socialAccount(provider: String, subject: String, verifiedEmail: String?, newUser: StoredUser)
        throws(StoreError) -> (user: UserID, outcome: SocialAccountOutcome)
    {
        try write { transaction throws(StoreError) in
            let known = try transaction.one("""
                SELECT userId FROM identity WHERE provider = \(provider) AND subject = \(subject)
                """) { row throws(StoreError) in try row.value("userId", as: String.self) }
            if let known { return (UserID(known), .returning) }
            let now = StoreTime.milliseconds(newUser.createdAt)
            var user = newUser
            if let verifiedEmail {
                let owner = try transaction.one("""
                    SELECT id, isGuest FROM "user" WHERE lower(email) = lower(\(verifiedEmail) COLLATE "C")
                    """) { row throws(StoreError) in
                    (id: try row.value("id", as: String.self), isGuest: try row.value("isGuest", as: Bool.self))
                }
                if let owner, !owner.isGuest {
                    try transaction.run("""
                        INSERT INTO identity (provider, subject, userId, createdAt)
                        VALUES (\(provider), \(subject), \(owner.id), \(now))
                        """)
                    return (UserID(owner.id), .linked)
                }
                user.email = owner == nil ? verifiedEmail : nil
            }
            try transaction.run("""
                INSERT INTO "user" (\(unescaped: StoredUser.columns)) VALUES (\(user.id.rawValue), \(user.name),
                    \(user.email), \(user.passwordHash), \(user.isGuest), \(now))
                """)
            try transaction.run("""
                INSERT INTO identity (provider, subject, userId, createdAt)
                VALUES (\(provider), \(subject), \(user.id.rawValue), \(now))
                """)
            return (user.id, .created)
        }
    }

    package func identities(of user: UserID) throws(StoreError) -> [(provider: String, subject: String)] {
        try all("""
            SELECT provider, subject FROM identity WHERE userId = \(user.rawValue) ORDER BY provider, subject
            """) { row throws(StoreError) in
            (try row.value("provider", as: String.self), try row.value("subject", as: String.self))
        }
    }
}
