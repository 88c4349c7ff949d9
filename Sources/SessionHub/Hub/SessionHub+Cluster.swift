import Foundation
import Logging
import PongWire

/// A node among others on one PostgreSQL store (docs/SCALING.md): the periodic check (renew the lease; restore the
/// sessions handed to this node; let go of those another node took; adopt those of a node whose lease ran out),
/// finding where a code's session lives, and the handover of a planned drain.
extension SessionHub {
    /// Where a live session is, seen from this node.
    enum Location: Sendable {
        /// Here (restored now if it had just been handed over or adopted).
        case here(LiveSession)
        /// On the node at this URL, whose lease runs.
        case elsewhere(url: String)
        /// Between owners: its owner is draining, or its lease ran out and this node may not adopt it yet.
        case moving
        /// The store cannot be reached.
        case storeDown
        /// No live session has the code.
        case none
    }

    /// Where the live session `code` is: a store read, so call it off the event loops. On one node: `none`.
    func locate(_ code: SessionCode) -> Location {
        guard let cluster else { return .none }
        guard cluster.storeReachable else { return .storeDown }
        do {
            guard let owner = try cluster.ownership.owner(of: code) else { return .none }
            if owner.node == cluster.id { return restoreOwned(code).map(Location.here) ?? .none }
            if owner.leased, let url = owner.url { return owner.draining ? .moving : .elsewhere(url: url) }
            guard cluster.mayAdopt, try cluster.ownership.adopt(code, node: cluster.id) else { return .moving }
            metrics.adopted(1)
            logger.notice("session adopted on demand", metadata: [
                "session.code": "\(code)", "session.previousOwner": "\(owner.node ?? "none")",
            ])
            return restoreOwned(code).map(Location.here) ?? .none
        } catch {
            logger.warning("cannot locate a session", metadata: ["session.code": "\(code)", "error": "\(error)"])
            return .storeDown
        }
    }

    /// The session `code`, which this node owns in the store: the one in memory, else restored from the store now
    /// (no lock held over the store's reads: `adopt` keeps the first of two racing restores).
    func restoreOwned(_ code: SessionCode) -> LiveSession? {
        do {
            return try restoreSession(code)
        } catch {
            logger.error("cannot restore a session", metadata: ["session.code": "\(code)", "error": "\(error)"])
            return nil
        }
    }

    /// Starts the periodic check (`pongd serve` on PostgreSQL).
    func startCluster() {
        cluster?.start { [weak self] in self?.clusterTick() }
    }

    /// One check, on the cluster's queue.
    func clusterTick() {
        guard let cluster else { return }
        switch cluster.renew() {
        case nil:
            // The same node (its data folder) started again elsewhere: the sessions are the new process's now.
            let url = (try? cluster.ownership.nodes().first { $0.id == cluster.id }?.url) ?? cluster.url
            logger.critical("another process took this node's lease over: letting its sessions go", metadata: [
                "node.id": "\(cluster.id)", "node.url": "\(url)",
            ])
            cluster.stopSoon()
            for live in liveSessions { release(live, to: url) }
            return
        case .storeLost?:
            logger.error("the store cannot be reached: live sessions go on, joins are refused", metadata: [
                "node.id": "\(cluster.id)",
            ])
            return
        case .storeReturned?:
            logger.notice("the store is back: writing what was held", metadata: ["node.id": "\(cluster.id)"])
            events.retryHeld()
        case .none?:
            break
        }
        guard cluster.storeReachable else { return }
        retryHeldWrites()
        // Taken before the store is asked: a session created meanwhile is owned in the store before it is in memory.
        let loaded = liveCodes
        do {
            let owned = Set(try cluster.ownership.liveSessions(ownedBy: cluster.id))
            for code in loaded.subtracting(owned) { releaseMoved(code) }
            for code in owned.subtracting(loaded) { _ = restoreOwned(code) }
            guard cluster.mayAdopt else { return }
            let adopted = try cluster.ownership.adoptOrphans(node: cluster.id, limit: cluster.configuration.adoptionBatch)
            guard !adopted.isEmpty else { return }
            for code in adopted { _ = restoreOwned(code) }
            metrics.adopted(adopted.count)
            logger.notice("sessions adopted", metadata: [
                "count": "\(adopted.count)", "session.codes": "\(adopted.map(\.value).joined(separator: ","))",
            ])
        } catch {
            logger.warning("cannot check session ownership", metadata: ["error": "\(error)"])
        }
    }

    /// Lets go of a session another node owns now: its sockets are closed with 4101 and the new owner's socket URL.
    /// A session that ended meanwhile (no owner) is left to end here.
    private func releaseMoved(_ code: SessionCode) {
        guard let cluster, let live = session(code) else { return }
        guard let owner = try? cluster.ownership.owner(of: code), let url = owner.url, owner.node != cluster.id
        else { return }
        release(live, to: url)
    }

    /// Stops serving `live` here; its sockets are told to reconnect to the node at `url` (close 4101).
    func release(_ live: LiveSession, to url: String) {
        let code = live.code
        live.release(closing: { connection in
            CloseCode.moved(to: ClusterNode.socketURL(code: code, role: connection.endpoint.role, at: url))
        }) { [weak self] in
            self?.forget(code)
            self?.logger.notice("session moved", metadata: ["session.code": "\(code)", "node.url": "\(url)"])
        }
    }

    /// A planned drain (SIGTERM) on several nodes: marks this node draining, hands every live session to the other
    /// nodes whose lease runs (fewest sessions first), and closes each socket with 4101 and the new owner's URL.
    /// Messages that arrive meanwhile are dropped (not acknowledged: the phone sends them again after `hello`).
    /// Without another node, nothing moves: the sessions wait in the store for this node's restart (close 4100).
    /// Returns how many sessions moved.
    @discardableResult
    package func handOverSessions() -> Int {
        guard let cluster else { return 0 }
        cluster.stop()
        let targets: [ClusterNodeRecord]
        do {
            try cluster.ownership.setDraining(id: cluster.id)
            targets = try cluster.ownership.nodes().filter { $0.leased && !$0.draining && $0.id != cluster.id }
        } catch {
            logger.error("cannot hand sessions over: the store cannot be reached", metadata: ["error": "\(error)"])
            return 0
        }
        guard !targets.isEmpty else {
            logger.notice("no other node to hand sessions over to", metadata: ["node.id": "\(cluster.id)"])
            return 0
        }
        handingOver.store(true, ordering: .relaxed)
        flushWrites()
        var load = targets.map { ($0, $0.sessions) }
        var moved = 0
        for live in liveSessions.sorted(by: { $0.code.value < $1.code.value }) {
            guard let index = load.indices.min(by: { load[$0].1 < load[$1].1 }) else { break }
            let target = load[index].0
            do {
                guard try cluster.ownership.handOver([live.code], from: cluster.id, to: target.id) == 1 else { continue }
            } catch {
                logger.error("cannot hand a session over", metadata: ["session.code": "\(live.code)", "error": "\(error)"])
                continue
            }
            load[index].1 += 1
            moved += 1
            release(live, to: target.url)
        }
        flushWrites()
        try? cluster.ownership.releaseLease(id: cluster.id, incarnation: cluster.incarnation)
        logger.notice("sessions handed over", metadata: ["count": "\(moved)", "nodes": "\(targets.count)"])
        return moved
    }
}
