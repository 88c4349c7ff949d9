import Foundation

/// The quotas' work that touches the store (docs/SECURITY.md, "Quotas").
extension SessionHub {
    /// Deletes guests older than `unjoinedGuestLifetime` that are in no live session, in batches (each its own
    /// write, so seat writes interleave), when the schedule says a run is due; runs on the caller's thread. Returns
    /// how many were deleted.
    @discardableResult
    func purgeUnjoinedGuestsIfDue(now: Date = Date(), instant: ContinuousClock.Instant = .now) -> Int {
        guard quotas.purgeDue(now: instant) else { return 0 }
        let lifetime = quotas.limits.unjoinedGuestLifetime
        let cutoff = now.addingTimeInterval(
            -(Double(lifetime.components.seconds) + Double(lifetime.components.attoseconds) * 1e-18))
        let batch = 500
        var deleted = 0
        do throws(StoreError) {
            while true {
                let ids = try store.purgeUnjoinedGuests(createdBefore: cutoff, limit: batch)
                deleted += ids.count
                if ids.count < batch { break }
            }
        } catch {
            logger.error("cannot purge unjoined guests", metadata: ["error": "\(error)"])
        }
        if deleted > 0 { logger.info("unjoined guests purged", metadata: ["count": "\(deleted)"]) }
        return deleted
    }
}
