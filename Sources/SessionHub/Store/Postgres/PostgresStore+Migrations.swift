import PostgresNIO

extension PostgresStore {
    /// One schema change: its identifier (the same as the SQLite store's for the same change) and its statements.
    struct Migration {
        let id: String
        let statements: [String]
    }

    /// The unique index that makes emails unique in any ASCII letter case (its violations are `.duplicateEmail`).
    static let emailIndex = "user_email_nocase"

    /// Key of the advisory lock held while migrating, so nodes starting at once migrate one after the other.
    static let migrationLock: Int64 = 0x706F_6E67_6400_0001

    /// The schema, in order. Never edit a shipped migration: add one, here and in `SessionStore.migrator`.
    ///
    /// Tables, columns and rules are the SQLite store's: timestamps are BIGINT milliseconds since 1970, text keys
    /// use the "C" collation (byte order, as SQLite's BINARY, so sorted results agree) and `lower()` under it folds
    /// ASCII letters only, as SQLite's NOCASE. JSON columns are `json` (kept as given, checked on write).
    static let migrations: [Migration] = [
        Migration(id: "v1", statements: [
            """
            CREATE TABLE "user" (
                id TEXT COLLATE "C" PRIMARY KEY,
                name TEXT NOT NULL,
                email TEXT COLLATE "C",
                passwordHash TEXT,
                isGuest BOOLEAN NOT NULL,
                createdAt BIGINT NOT NULL,
                CONSTRAINT user_credentials CHECK (isGuest OR (email IS NOT NULL AND passwordHash IS NOT NULL))
            )
            """,
            "CREATE UNIQUE INDEX \(emailIndex) ON \"user\" (lower(email))",
            """
            CREATE TABLE photo (
                id TEXT COLLATE "C" PRIMARY KEY,
                userId TEXT COLLATE "C" NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
                contentType TEXT NOT NULL CHECK (contentType IN ('image/jpeg', 'image/png')),
                bytes BYTEA NOT NULL,
                createdAt BIGINT NOT NULL
            )
            """,
            "CREATE INDEX photo_userId ON photo(userId)",
            """
            CREATE TABLE profile (
                userId TEXT COLLATE "C" PRIMARY KEY REFERENCES "user"(id) ON DELETE CASCADE,
                displayName TEXT NOT NULL,
                photoId TEXT COLLATE "C" REFERENCES photo(id) ON DELETE SET NULL,
                updatedAt BIGINT NOT NULL
            )
            """,
            "CREATE INDEX profile_photoId ON profile(photoId)",
            """
            CREATE TABLE session (
                code TEXT COLLATE "C" PRIMARY KEY,
                hostUserId TEXT COLLATE "C" REFERENCES "user"(id) ON DELETE SET NULL,
                mode TEXT NOT NULL CHECK (mode IN ('rally', 'fullGame')),
                pointsToWin INTEGER NOT NULL CHECK (pointsToWin IN (11, 21)),
                serveRule TEXT CHECK (serveRule IN ('standard', 'winnerServes')),
                state TEXT NOT NULL CHECK (state IN ('waiting', 'playing', 'ended')),
                createdAt BIGINT NOT NULL,
                lastActivityAt BIGINT NOT NULL,
                endedAt BIGINT
            )
            """,
            "CREATE INDEX session_state_lastActivityAt ON session(state, lastActivityAt)",
            "CREATE INDEX session_hostUserId ON session(hostUserId)",
            """
            CREATE TABLE membership (
                playerId TEXT COLLATE "C" PRIMARY KEY,
                sessionCode TEXT COLLATE "C" NOT NULL REFERENCES session(code) ON DELETE CASCADE,
                userId TEXT COLLATE "C" NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
                resumeToken TEXT COLLATE "C" NOT NULL UNIQUE,
                journey JSON NOT NULL,
                joinedAt BIGINT NOT NULL,
                leftAt BIGINT
            )
            """,
            "CREATE INDEX membership_sessionCode ON membership(sessionCode, joinedAt)",
            "CREATE INDEX membership_userId ON membership(userId)",
            """
            CREATE TABLE event (
                id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                sessionCode TEXT COLLATE "C" NOT NULL REFERENCES session(code) ON DELETE CASCADE,
                playerId TEXT COLLATE "C" REFERENCES membership(playerId) ON DELETE CASCADE,
                type TEXT NOT NULL,
                payload JSON NOT NULL,
                at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX event_sessionCode_id ON event(sessionCode, id)",
            "CREATE INDEX event_playerId ON event(playerId)",
        ]),
        Migration(id: "v2-guest-purge", statements: [
            // Guests by age, for `purgeUnjoinedGuests` (issue 12: never-joined guests go after a day).
            "CREATE INDEX user_isGuest_createdAt ON \"user\"(isGuest, createdAt)",
        ]),
        // Social sign-in (issue 14): `identity` maps a provider's subject to its account; an account signed up
        // with a provider needs neither a password nor an email: the rule is now "a password hash needs an email".
        Migration(id: "v3-social-identities", statements: [
            """
            ALTER TABLE "user" DROP CONSTRAINT user_credentials,
                ADD CONSTRAINT user_credentials CHECK (passwordHash IS NULL OR email IS NOT NULL)
            """,
            """
            CREATE TABLE identity (
                provider TEXT COLLATE "C" NOT NULL,
                subject TEXT COLLATE "C" NOT NULL,
                userId TEXT COLLATE "C" NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
                createdAt BIGINT NOT NULL,
                PRIMARY KEY (provider, subject)
            )
            """,
            "CREATE INDEX identity_userId ON identity(userId)",
        ]),
        // Several nodes (issue 15, docs/SCALING.md): each node's lease, the owner of each live session, and the
        // secrets every node shares (the token key).
        Migration(id: "v4-nodes", statements: [
            """
            CREATE TABLE node (
                id TEXT COLLATE "C" PRIMARY KEY,
                url TEXT NOT NULL,
                incarnation TEXT NOT NULL,
                leaseUntil BIGINT NOT NULL,
                draining BOOLEAN NOT NULL DEFAULT false
            )
            """,
            "ALTER TABLE session ADD COLUMN ownerNode TEXT COLLATE \"C\"",
            "CREATE INDEX session_ownerNode ON session(ownerNode) WHERE state != 'ended'",
            "CREATE TABLE secret (name TEXT COLLATE \"C\" PRIMARY KEY, value BYTEA NOT NULL)",
        ]),
    ]

    /// Applies the migrations the database lacks (up to `last`, all by default: tests build older schemas), in one
    /// transaction under an advisory lock (so several nodes
    /// starting at once apply each exactly once), recording each in `pongd_migration`. Applying them again
    /// changes nothing.
    func migrate(upTo last: String? = nil) throws(StoreError) {
        let wanted = last.flatMap { id in Self.migrations.firstIndex { $0.id == id } }.map { Self.migrations[...$0] }
            ?? Self.migrations[...]
        try write { transaction throws(StoreError) in
            try transaction.run("SELECT pg_advisory_xact_lock(\(Self.migrationLock))")
            try transaction.run("""
                CREATE TABLE IF NOT EXISTS pongd_migration (
                    id TEXT COLLATE "C" PRIMARY KEY, appliedAt TIMESTAMPTZ NOT NULL DEFAULT now())
                """)
            let applied = Set(try transaction.all("SELECT id FROM pongd_migration") { row throws(StoreError) in
                try row.value("id", as: String.self)
            })
            for migration in wanted where !applied.contains(migration.id) {
                for statement in migration.statements { try transaction.run(PostgresQuery(unsafeSQL: statement)) }
                try transaction.run("INSERT INTO pongd_migration (id) VALUES (\(migration.id))")
                logger.info("applied a store migration", metadata: ["migration": "\(migration.id)"])
            }
        }
    }

    /// Identifiers of the applied migrations, in the order they were defined.
    package func appliedMigrations() throws(StoreError) -> [String] {
        let applied = Set(try read { transaction throws(StoreError) in
            try transaction.all("SELECT id FROM pongd_migration") { row throws(StoreError) in
                try row.value("id", as: String.self)
            }
        })
        return Self.migrations.map(\.id).filter(applied.contains)
    }
}
