import Dispatch
import NIOConcurrencyHelpers
import PongWire

/// This node among others on one PostgreSQL store: its identity, its lease (`NodeLease`) and the store calls that
/// decide who owns a session. `SessionHub+Cluster` drives it; docs/SCALING.md explains the design.
/// `@unchecked`: the timer (not Sendable) is only touched under its lock.
package final class ClusterNode: @unchecked Sendable {
    /// The node's identity in the store, kept in `<data-dir>/node.id`: the same across restarts, whatever its address.
    package let id: String
    /// Where phones and other nodes reach it (an origin: `http://HOST:PORT`, `--public-url`).
    package let url: String
    /// This process: a node restarted under the same id takes its row over, and the old process, should it still
    /// run, learns it at its next renewal.
    let incarnation = RandomID.hex(bytes: 8)
    let ownership: any SessionOwnershipStore
    let configuration: ClusterConfiguration
    private let lease: NIOLockedValueBox<NodeLease>
    /// Where the lease is renewed and ownership checked, one check at a time.
    let queue = DispatchQueue(label: "pongd.cluster")
    private let timer: NIOLockedValueBox<(any DispatchSourceTimer)?> = NIOLockedValueBox(nil)
    /// Forwarded calls open now (`HubRouter.forward`), at most `configuration.maxForwards` in all and
    /// `configuration.maxForwardsPerAddress` per client address.
    private let forwards: NIOLockedValueBox<ConnectionLimiter>

    init(id: String, url: String, ownership: any SessionOwnershipStore, configuration: ClusterConfiguration) {
        self.id = id
        self.url = url
        self.ownership = ownership
        self.configuration = configuration
        self.lease = NIOLockedValueBox(NodeLease(duration: configuration.leaseDuration))
        self.forwards = NIOLockedValueBox(ConnectionLimiter(maxTotal: configuration.maxForwards,
                                                            maxPerAddress: configuration.maxForwardsPerAddress))
    }

    var leaseMilliseconds: Int64 {
        let (seconds, attoseconds) = configuration.leaseDuration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// Takes the node's row and starts its lease (at start-up, before restoring its sessions).
    func register() throws(StoreError) {
        let sent = ContinuousClock.now
        try ownership.registerNode(id: id, url: url, incarnation: incarnation, leaseMilliseconds: leaseMilliseconds)
        _ = lease.withLockedValue { $0.renewed(at: sent) }
    }

    /// Renews the lease; what changed, or nil when another process of this node took the row over.
    func renew() -> NodeLease.Change? {
        let sent = ContinuousClock.now
        do {
            guard try ownership.renewLease(id: id, incarnation: incarnation, leaseMilliseconds: leaseMilliseconds)
            else { return nil }
            return lease.withLockedValue { $0.renewed(at: sent) }
        } catch {
            return lease.withLockedValue { $0.failed(at: .now) }
        }
    }

    /// Whether the store answered the last renewal (false: joins fail fast with 503 `store_unavailable`).
    var storeReachable: Bool { lease.withLockedValue { $0.storeReachable } }

    /// Whether this node may adopt sessions whose owner's lease ran out now.
    var mayAdopt: Bool { lease.withLockedValue { $0.mayAdopt(at: .now) } }

    /// Runs `tick` every renewal interval on `queue` until `stop`.
    func start(_ tick: @escaping @Sendable () -> Void) {
        let source = DispatchSource.makeTimerSource(queue: queue)
        source.setEventHandler(handler: tick)
        let (seconds, attoseconds) = configuration.renewInterval.components
        let interval = DispatchTimeInterval.milliseconds(Int(seconds * 1000 + attoseconds / 1_000_000_000_000_000))
        source.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(50))
        source.resume()
        timer.withLockedValue { $0 = source }
    }

    /// Stops the periodic check from within a tick (on `queue`: `stop` would wait for itself).
    func stopSoon() {
        timer.withLockedValue { timer in
            timer?.cancel()
            timer = nil
        }
    }

    /// Stops the periodic check (the timer's tick in flight, if any, finishes).
    func stop() {
        timer.withLockedValue { timer in
            timer?.cancel()
            timer = nil
        }
        queue.sync {}
    }

    /// The WebSocket URL of a `role` socket of session `code` on the node at `url`: `ws(s)://HOST:PORT/sessions/CODE/player/USER` or
    /// `…/dashboard` (the reason of close 4101; the client adds `?token=` again).
    static func socketURL(code: SessionCode, role: WebSocketEndpoint.Role, at url: String) -> String {
        let base = url.hasPrefix("https://") ? "wss://" + url.dropFirst(8)
            : url.hasPrefix("http://") ? "ws://" + url.dropFirst(7) : Substring(url)
        switch role {
        case .player(let user): return "\(base)/sessions/\(code.value)/player/\(user)"
        case .dashboard: return "\(base)/sessions/\(code.value)/dashboard"
        }
    }

    /// Takes one of the `maxForwards` slots for a forwarded call from the client `address`: `admit`, else
    /// `refuseTotal` (every one taken) or `refuseAddress` (the address holds its `maxForwardsPerAddress`).
    func beginForward(for address: String) -> ConnectionLimiter.Admission {
        forwards.withLockedValue { $0.opened(from: address) }
    }

    /// Gives back a slot `beginForward(for:)` took for `address` (the call was answered, failed or timed out).
    func endForward(for address: String) { forwards.withLockedValue { $0.closed(from: address) } }

    /// Forwarded calls open now.
    var openForwards: Int { forwards.withLockedValue { $0.total } }
}
