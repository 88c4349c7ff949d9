import Dispatch
import Foundation
import Logging
import NIOConcurrencyHelpers

/// Appends session events (bounces) to the store in batches, on the hub's ordered writer queue, so a burst of
/// impacts costs one transaction, not one each, and no session queue ever waits for the disk.
final class EventWriter: Sendable {
    private let store: any HubStore
    private let queue: DispatchQueue
    private let logger: Logger
    private let pending = NIOLockedValueBox<[StoredEvent]>([])

    init(store: any HubStore, queue: DispatchQueue, logger: Logger) {
        self.store = store
        self.queue = queue
        self.logger = logger
    }

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
        let events = pending.withLockedValue { events in
            let taken = events
            events = []
            return taken
        }
        do throws(StoreError) {
            try store.appendEvents(events)
        } catch {
            logger.error("cannot store events", metadata: ["events": "\(events.count)", "error": "\(error)"])
        }
    }
}
