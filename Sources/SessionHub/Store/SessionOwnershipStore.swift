import PongWire

/// One node's row in a shared store: its lease and whether it is handing its sessions over.
package struct ClusterNodeRecord: Sendable, Equatable {
    /// The node's identity: its public URL (`pongd serve --public-url`).
    package var id: String
    /// Where phones and other nodes reach it (the same URL).
    package var url: String
    /// Whether its lease is still running on the database's clock.
    package var leased: Bool
    /// Whether it is draining (SIGTERM): its sessions are being handed over.
    package var draining: Bool
    /// Its live sessions.
    package var sessions: Int
}

/// Who owns a live session.
package struct SessionOwner: Sendable, Equatable {
    /// The owner node's id (nil: none, e.g. a session stored before nodes existed).
    package var node: String?
    /// The owner's URL.
    package var url: String?
    /// Whether the owner's lease is running.
    package var leased: Bool
    /// Whether the owner is handing its sessions over.
    package var draining: Bool
}

/// The store's side of sessions owned by nodes (docs/SCALING.md): leases on the database's clock, who owns what,
/// adopting the sessions of a node whose lease ran out, handing sessions over, and the secrets every node shares.
/// `PostgresStore` keeps it; one SQLite file serves one node, which owns everything, and needs none of it.
///
/// Every call is one transaction; times are the database's (`clock_timestamp()`), so node clocks never matter.
package protocol SessionOwnershipStore: Sendable {
    /// Takes the node's row for a new process (`incarnation`): its lease runs `leaseMilliseconds` from now, it is not
    /// draining. A process of the same node that ran before loses the row (its next `renewLease` answers false).
    func registerNode(id: String, url: String, incarnation: String, leaseMilliseconds: Int64) throws(StoreError)
    /// Extends the node's lease to `leaseMilliseconds` from now; false when another process took the node over.
    func renewLease(id: String, incarnation: String, leaseMilliseconds: Int64) throws(StoreError) -> Bool
    /// Marks the node draining: other nodes no longer send it sessions and answer "moving" for its own.
    func setDraining(id: String) throws(StoreError)
    /// Ends the node's lease now (after a drain handed everything over).
    func releaseLease(id: String, incarnation: String) throws(StoreError)
    /// Every node with a row, its lease state and its live sessions, by id.
    func nodes() throws(StoreError) -> [ClusterNodeRecord]
    /// The owner of a live session; nil when no live session has the code.
    func owner(of code: SessionCode) throws(StoreError) -> SessionOwner?
    /// The live sessions `node` owns, sorted.
    func liveSessions(ownedBy node: String) throws(StoreError) -> [SessionCode]
    /// Makes `node` the owner of up to `limit` live sessions whose owner's lease ran out (or that have no owner),
    /// one node at a time (an advisory lock): no session is adopted twice. Their codes, sorted.
    func adoptOrphans(node: String, limit: Int) throws(StoreError) -> [SessionCode]
    /// Makes `node` the owner of one live session if its owner's lease ran out (or it has none); whether it did.
    func adopt(_ code: SessionCode, node: String) throws(StoreError) -> Bool
    /// Moves the live sessions among `codes` that `node` owns to `target`; how many moved.
    func handOver(_ codes: [SessionCode], from node: String, to target: String) throws(StoreError) -> Int
    /// The secret called `name`: the stored one, or `proposed` stored now when there is none (the first node to
    /// start decides, every node gets the same).
    func sharedSecret(_ name: String, proposed: [UInt8]) throws(StoreError) -> [UInt8]
}
