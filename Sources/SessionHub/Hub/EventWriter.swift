import Dispatch
import Foundation
import Logging
import NIOConcurrencyHelpers

/// Appends session events (bounces) to the store in batches, on the hub's ordered writer queue, so a burst of
/// impacts costs one transaction, not one each, and no session queue ever waits for the disk.
///
/// While the store cannot be reached (`StoreError.io`: PostgreSQL down), batches are held, oldest first, up to
/// `maxHeld` events (the oldest beyond are dropped and counted in the log), and written in order with the next
/// batch or when `retryHeld()` is called (the store is back).
final class EventWriter: Sendable {
    private let store: any HubStore
    private let queue: DispatchQueue
    private let logger: Logger
    private let pending = NIOLockedValueBox<[StoredEvent]>([])
    /// Events whose write failed with `.io`, to be written before any later one (touched only on `queue`).
    private let held = NIOLockedValueBox<[StoredEvent]>([])
    /// Most events held for a store out of reach.
    let maxHeld: Int
    /// Whether the store is worth trying (false: PostgreSQL known to be down; events are held without a try).
    private let storeReachable: @Sendable () -> Bool

    init(store: any HubStore, queue: DispatchQueue, logger: Logger, maxHeld: Int = 50_000,
         storeReachable: @escaping @Sendable () -> Bool = { true }) {
        self.store = store
        self.storeReachable = storeReachable
        self.queue = queue
        self.logger = logger
        self.maxHeld = maxHeld
    }

    /// Writes the held events now (the store is back).
    func retryHeld() {
        queue.async { self.writePending() }
    }

    /// Events held for a store out of reach.
    var heldCount: Int { held.withLockedValue { $0.count } }

    /// Queues an event; the first one queued after a write schedules the next write.
    func append(_ event: StoredEvent) {
        let first = pending.withLockedValue { events in
            events.append(event)
            return events.count == 1
        }
        guard first else { return }
        queue.async { self.writePending() }
    }

    private func writePending() {
        let fresh = pending.withLockedValue { events in
            let taken = events
            events = []
            return taken
        }
        let events = held.withLockedValue { held in
            let taken = held + fresh
            held = []
            return taken
        }
        guard !events.isEmpty else { return }
        do throws(StoreError) {
            guard storeReachable() else { throw StoreError.io.with(detail: "the store is out of reach") }
            try store.appendEvents(events)
        } catch where error == .io {
            let dropped = max(0, events.count - maxHeld)
            held.withLockedValue { $0 = Array(events.suffix(maxHeld)) }
            logger.error("cannot store events: held until the store is back", metadata: [
                "events.held": "\(events.count - dropped)", "events.dropped": "\(dropped)", "error": "\(error)",
            ])
        } catch {
            logger.error("cannot store events", metadata: ["events": "\(events.count)", "error": "\(error)"])
        }
    }
}
