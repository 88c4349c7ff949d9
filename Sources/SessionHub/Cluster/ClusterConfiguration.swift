/// How a node shares sessions with others on one PostgreSQL store (docs/SCALING.md).
package struct ClusterConfiguration: Sendable {
    /// The node's identity and address, an origin like `http://10.0.0.5:8080` (`--public-url`, or the listening
    /// address): phones and other nodes reach it there; nil on one node (SQLite).
    package var nodeURL: String?
    /// How long a lease runs after its renewal: a killed node's sessions are adopted this long (plus one renewal
    /// interval) after its last renewal.
    package var leaseDuration: Duration = .seconds(6)
    /// How often the lease is renewed and ownership checked (sessions handed to this node, taken from it, orphaned).
    package var renewInterval: Duration = .milliseconds(1500)
    /// Most sessions adopted per check (a dead node's sessions are shared among the survivors).
    package var adoptionBatch = 50
    /// How long a forwarded HTTP call may take on the owner (connecting included); then its connection is closed
    /// and the caller gets 503 `session_unavailable`.
    package var forwardTimeout: Duration = .seconds(10)
    /// Most forwarded calls (each one outbound connection) open on this node at once; beyond them a call that
    /// should be forwarded gets 503 `server_busy` with `Retry-After: 1`.
    package var maxForwards = 256
    /// Most of those calls open at once for one client address (a quarter of `maxForwards`), so one address cannot
    /// take every slot; beyond them its calls get 503 `server_busy` too while other addresses are still served.
    package var maxForwardsPerAddress = 64

    package init(nodeURL: String? = nil) { self.nodeURL = nodeURL }
}
