import GRDB

extension SessionStore {
    /// Versioned schema migrations, applied in order when a store opens. Never edit a shipped migration: add one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try createSchemaV1(db) }
        migrator.registerMigration("v2-guest-purge") { db in
            // Guests by age, for `purgeUnjoinedGuests` (issue 12: never-joined guests go after a day).
            try db.execute(sql: "CREATE INDEX user_isGuest_createdAt ON user(isGuest, createdAt)")
        }
        migrator.registerMigration("v3-social-identities") { db in try addSocialIdentities(db) }
        migrator.registerMigration("v4-nodes") { db in try addNodes(db) }
        return migrator
    }

    /// v1: every table and index. Timestamps are INTEGER milliseconds since 1970.
    private static func createSchemaV1(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE user (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL,
                email TEXT UNIQUE COLLATE NOCASE,
                passwordHash TEXT,
                isGuest BOOLEAN NOT NULL CHECK (isGuest IN (0, 1)),
                createdAt INTEGER NOT NULL,
                CHECK (isGuest = 1 OR (email IS NOT NULL AND passwordHash IS NOT NULL))
            );
            CREATE TABLE photo (
                id TEXT PRIMARY KEY NOT NULL,
                userId TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                contentType TEXT NOT NULL CHECK (contentType IN ('image/jpeg', 'image/png')),
                bytes BLOB NOT NULL,
                createdAt INTEGER NOT NULL
            );
            CREATE INDEX photo_userId ON photo(userId);
            CREATE TABLE profile (
                userId TEXT PRIMARY KEY NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                displayName TEXT NOT NULL,
                photoId TEXT REFERENCES photo(id) ON DELETE SET NULL,
                updatedAt INTEGER NOT NULL
            );
            CREATE INDEX profile_photoId ON profile(photoId);
            CREATE TABLE session (
                code TEXT PRIMARY KEY NOT NULL,
                hostUserId TEXT REFERENCES user(id) ON DELETE SET NULL,
                mode TEXT NOT NULL CHECK (mode IN ('rally', 'fullGame')),
                pointsToWin INTEGER NOT NULL CHECK (pointsToWin IN (11, 21)),
                serveRule TEXT CHECK (serveRule IN ('standard', 'winnerServes')),
                state TEXT NOT NULL CHECK (state IN ('waiting', 'playing', 'ended')),
                createdAt INTEGER NOT NULL,
                lastActivityAt INTEGER NOT NULL,
                endedAt INTEGER
            );
            CREATE INDEX session_state_lastActivityAt ON session(state, lastActivityAt);
            CREATE INDEX session_hostUserId ON session(hostUserId);
            CREATE TABLE membership (
                playerId TEXT PRIMARY KEY NOT NULL,
                sessionCode TEXT NOT NULL REFERENCES session(code) ON DELETE CASCADE,
                userId TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                resumeToken TEXT NOT NULL UNIQUE,
                journey TEXT NOT NULL CHECK (json_valid(journey)),
                joinedAt INTEGER NOT NULL,
                leftAt INTEGER
            );
            CREATE INDEX membership_sessionCode ON membership(sessionCode, joinedAt);
            CREATE INDEX membership_userId ON membership(userId);
            CREATE TABLE event (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                sessionCode TEXT NOT NULL REFERENCES session(code) ON DELETE CASCADE,
                playerId TEXT REFERENCES membership(playerId) ON DELETE CASCADE,
                type TEXT NOT NULL,
                payload TEXT NOT NULL CHECK (json_valid(payload)),
                at INTEGER NOT NULL
            );
            CREATE INDEX event_sessionCode_id ON event(sessionCode, id);
            CREATE INDEX event_playerId ON event(playerId);
            """)
    }

    /// v3: social sign-in (issue 14). `identity` maps a provider's subject to its account; `user` is rebuilt (SQLite
    /// cannot alter a CHECK) so that an account signed up with a provider needs neither a password nor an email:
    /// the rule is now "a password hash needs an email". GRDB runs migrations with foreign keys off and checks them
    /// all before committing, so dropping the old table cascades nothing.
    private static func addSocialIdentities(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE new_user (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL,
                email TEXT UNIQUE COLLATE NOCASE,
                passwordHash TEXT,
                isGuest BOOLEAN NOT NULL CHECK (isGuest IN (0, 1)),
                createdAt INTEGER NOT NULL,
                CHECK (passwordHash IS NULL OR email IS NOT NULL)
            );
            INSERT INTO new_user (id, name, email, passwordHash, isGuest, createdAt)
                SELECT id, name, email, passwordHash, isGuest, createdAt FROM user;
            DROP TABLE user;
            ALTER TABLE new_user RENAME TO user;
            CREATE INDEX user_isGuest_createdAt ON user(isGuest, createdAt);
            CREATE TABLE identity (
                provider TEXT NOT NULL,
                subject TEXT NOT NULL,
                userId TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                createdAt INTEGER NOT NULL,
                PRIMARY KEY (provider, subject)
            );
            CREATE INDEX identity_userId ON identity(userId);
            """)
    }

    /// v4 (issue 15): nodes, the owner of each session and shared secrets. One SQLite file serves one node, which
    /// owns every session: the tables are kept so both backends have the same schema (docs/SCALING.md).
    private static func addNodes(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE node (
                id TEXT PRIMARY KEY NOT NULL,
                url TEXT NOT NULL,
                incarnation TEXT NOT NULL,
                leaseUntil INTEGER NOT NULL,
                draining BOOLEAN NOT NULL DEFAULT 0 CHECK (draining IN (0, 1))
            );
            ALTER TABLE session ADD COLUMN ownerNode TEXT;
            CREATE INDEX session_ownerNode ON session(ownerNode) WHERE state != 'ended';
            CREATE TABLE secret (
                name TEXT PRIMARY KEY NOT NULL,
                value BLOB NOT NULL
            );
            """)
    }
}
