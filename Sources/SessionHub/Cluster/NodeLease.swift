/// What a node knows of its own lease in the shared store: a pure state machine over an injected clock
/// (docs/SCALING.md, "Leases"). The node renews every `renewInterval`; each attempt's outcome is fed here.
///
/// - The lease is held while the last renewal is less than `duration` old (by this node's monotonic clock, which
///   never runs ahead of the database's: the database counted from the moment it committed, later than `at`).
/// - The store is reachable while the last attempt succeeded; `storeReachable` false is what makes joins fail
///   fast with 503 `store_unavailable`.
/// - A node adopts other nodes' sessions only after its renewals have succeeded without a gap for `duration`: after
///   an outage of the database every node's lease looks expired, and the owners must get the chance to renew theirs
///   first. So a returning database never moves a session whose owner is alive.
package struct NodeLease: Sendable, Equatable {
    /// What a renewal outcome changed.
    package enum Change: Sendable, Equatable {
        case none
        /// The first success after failures: what failed to be written meanwhile must be written again.
        case storeReturned
        /// The first failure after successes.
        case storeLost
    }

    package let duration: Duration
    private var lastRenewal: ContinuousClock.Instant?
    private var healthySince: ContinuousClock.Instant?
    private(set) package var storeReachable = true

    package init(duration: Duration) { self.duration = duration }

    /// A renewal committed; `at` is when it was sent.
    package mutating func renewed(at: ContinuousClock.Instant) -> Change {
        lastRenewal = at
        if healthySince == nil { healthySince = at }
        defer { storeReachable = true }
        return storeReachable ? .none : .storeReturned
    }

    /// A renewal failed (the store cannot be reached).
    package mutating func failed(at: ContinuousClock.Instant) -> Change {
        healthySince = nil
        defer { storeReachable = false }
        return storeReachable ? .storeLost : .none
    }

    /// Whether the lease still runs at `now`.
    package func held(at now: ContinuousClock.Instant) -> Bool {
        lastRenewal.map { now < $0 + duration } ?? false
    }

    /// Whether the node may adopt sessions whose owner's lease ran out.
    package func mayAdopt(at now: ContinuousClock.Instant) -> Bool {
        healthySince.map { now >= $0 + duration } ?? false
    }
}
