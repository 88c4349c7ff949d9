import NIOCore
import PongWire
import PostgresNIO

/// Leases, owners and shared secrets on PostgreSQL (docs/SCALING.md), on the control connection. "Now" is the
/// database's clock in milliseconds, so the nodes' own clocks never decide who owns what.
extension PostgresStore: SessionOwnershipStore {
    /// The database's clock, BIGINT milliseconds since 1970 (as every timestamp of the store).
    private static let nowMilliseconds = "(extract(epoch from clock_timestamp()) * 1000)::BIGINT"

    /// Key of the advisory lock adopters take, so two nodes never adopt the same session.
    static let adoptionLock: Int64 = 0x706F_6E67_6400_0002

    package func registerNode(id: String, url: String, incarnation: String, leaseMilliseconds: Int64)
        throws(StoreError)
    {
        try controlTransaction { transaction throws(StoreError) in
            try transaction.run("""
                INSERT INTO node (id, url, incarnation, leaseUntil, draining)
                VALUES (\(id), \(url), \(incarnation), \(unescaped: Self.nowMilliseconds) + \(leaseMilliseconds), false)
                ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, incarnation = EXCLUDED.incarnation,
                    leaseUntil = EXCLUDED.leaseUntil, draining = false
                """)
        }
    }

    package func renewLease(id: String, incarnation: String, leaseMilliseconds: Int64) throws(StoreError) -> Bool {
        try controlTransaction { transaction throws(StoreError) in
            try transaction.changes("""
                UPDATE node SET leaseUntil = \(unescaped: Self.nowMilliseconds) + \(leaseMilliseconds)
                WHERE id = \(id) AND incarnation = \(incarnation)
                """) > 0
        }
    }

    package func setDraining(id: String) throws(StoreError) {
        try controlTransaction { transaction throws(StoreError) in
            try transaction.run("UPDATE node SET draining = true WHERE id = \(id)")
        }
    }

    package func releaseLease(id: String, incarnation: String) throws(StoreError) {
        try controlTransaction { transaction throws(StoreError) in
            try transaction.run("""
                UPDATE node SET leaseUntil = \(unescaped: Self.nowMilliseconds) - 1
                WHERE id = \(id) AND incarnation = \(incarnation)
                """)
        }
    }

    package func nodes() throws(StoreError) -> [ClusterNodeRecord] {
        try controlTransaction { transaction throws(StoreError) in
            try transaction.all("""
                SELECT n.id, n.url, n.leaseUntil >= \(unescaped: Self.nowMilliseconds) AS leased, n.draining,
                    (SELECT count(*) FROM session s WHERE s.ownerNode = n.id AND s.state != 'ended') AS sessions
                FROM node n ORDER BY n.id
                """) { row throws(StoreError) in
                ClusterNodeRecord(id: try row.value("id"), url: try row.value("url"), leased: try row.value("leased"),
                                  draining: try row.value("draining"),
                                  sessions: Int(try row.value("sessions", as: Int64.self)))
            }
        }
    }

    /// On a reader connection: phones' lookups never queue in front of the lease's renewal.
    package func owner(of code: SessionCode) throws(StoreError) -> SessionOwner? {
        try read { transaction throws(StoreError) in
            try transaction.one("""
                SELECT s.ownerNode, n.url, COALESCE(n.leaseUntil >= \(unescaped: Self.nowMilliseconds), false) AS leased,
                    COALESCE(n.draining, false) AS draining
                FROM session s LEFT JOIN node n ON n.id = s.ownerNode
                WHERE s.code = \(code.value) AND s.state != 'ended'
                """) { row throws(StoreError) in
                SessionOwner(node: try row.value("ownerNode"), url: try row.value("url"),
                             leased: try row.value("leased"), draining: try row.value("draining"))
            }
        }
    }

    package func liveSessions(ownedBy node: String) throws(StoreError) -> [SessionCode] {
        try controlTransaction { transaction throws(StoreError) in
            try transaction.all("""
                SELECT code FROM session WHERE ownerNode = \(node) AND state != 'ended' ORDER BY code
                """) { row throws(StoreError) in try row.sessionCode("code") }
        }
    }

    package func adoptOrphans(node: String, limit: Int) throws(StoreError) -> [SessionCode] {
        try adopting(node: node, only: nil, limit: limit)
    }

    package func adopt(_ code: SessionCode, node: String) throws(StoreError) -> Bool {
        try !adopting(node: node, only: code, limit: 1).isEmpty
    }

    /// Live sessions whose owner has no running lease (or no row, or none at all).
    private static let orphaned = """
        s.state != 'ended' AND (s.ownerNode IS NULL OR n.id IS NULL OR n.leaseUntil < \(nowMilliseconds))
        """

    /// Adopts for `node` live orphans (only `code`'s when given), under the adoption lock: each statement after the
    /// lock sees every adoption committed before it. Without a code, at most `limit` and at most this node's share of
    /// them (the orphans over the live nodes not draining, rounded up), so the nodes checking one after the other
    /// share a dead node's sessions instead of the first taking them all.
    private func adopting(node: String, only code: SessionCode?, limit: Int) throws(StoreError) -> [SessionCode] {
        try controlTransaction { transaction throws(StoreError) in
            try transaction.run("SELECT pg_advisory_xact_lock(\(Self.adoptionLock))")
            var share = Int64(limit)
            if code == nil {
                share = try transaction.one("""
                    SELECT LEAST(\(Int64(limit)), CEIL(
                        (SELECT count(*) FROM session s LEFT JOIN node n ON n.id = s.ownerNode
                         WHERE \(unescaped: Self.orphaned))::NUMERIC
                        / GREATEST(1, (SELECT count(*) FROM node WHERE NOT draining
                                       AND leaseUntil >= \(unescaped: Self.nowMilliseconds)))))::BIGINT AS share
                    """) { row throws(StoreError) in try row.value("share", as: Int64.self) } ?? 0
            }
            guard share > 0 else { return [] }
            let codes = try transaction.all("""
                UPDATE session SET ownerNode = \(node) WHERE code IN (
                    SELECT s.code FROM session s LEFT JOIN node n ON n.id = s.ownerNode
                    WHERE (\(code?.value)::TEXT IS NULL OR s.code = \(code?.value)::TEXT) AND \(unescaped: Self.orphaned)
                    ORDER BY s.code LIMIT \(share))
                RETURNING code
                """) { row throws(StoreError) in try row.sessionCode("code") }
            return codes.sorted { $0.value < $1.value }
        }
    }

    package func handOver(_ codes: [SessionCode], from node: String, to target: String) throws(StoreError) -> Int {
        guard !codes.isEmpty else { return 0 }
        return try controlTransaction { transaction throws(StoreError) in
            try transaction.changes("""
                UPDATE session SET ownerNode = \(target)
                WHERE ownerNode = \(node) AND state != 'ended' AND code = ANY(\(codes.map(\.value)))
                """)
        }
    }

    package func sharedSecret(_ name: String, proposed: [UInt8]) throws(StoreError) -> [UInt8] {
        try controlTransaction { transaction throws(StoreError) in
            try transaction.run("""
                INSERT INTO secret (name, value) VALUES (\(name), \(ByteBuffer(bytes: proposed)))
                ON CONFLICT (name) DO NOTHING
                """)
            let stored = try transaction.one("SELECT value FROM secret WHERE name = \(name)") {
                row throws(StoreError) in try row.value("value", as: ByteBuffer.self)
            }
            guard var stored else { throw StoreError.corruptData.with(detail: "secret \(name) missing") }
            return stored.readBytes(length: stored.readableBytes) ?? []
        }
    }
}
