import Foundation
import PongWire

/// One change of a live session for the store: what `LiveSession` records before it acknowledges the event that
/// made it.
enum SessionWrite: Sendable, Equatable {
    /// The session's phase changed (started, or ended) at this wall time.
    case phase(SessionPhase, at: Date)
    /// A seat was left or freed at this wall time: it must not come back after a restart.
    case seatFreed(PlayerID, at: Date)
    /// A seat's journey changed.
    case journey(PlayerID, PlayerJourney.Snapshot)
    /// The session is in use at this wall time.
    case activity(Date)

    /// Whether `self` makes `older` unnecessary: a newer journey of the same seat, a freed seat's journeys, a newer
    /// phase, newer activity.
    func supersedes(_ older: SessionWrite) -> Bool {
        switch (self, older) {
        case (.journey(let seat, _), .journey(let olderSeat, _)), (.seatFreed(let seat, _), .journey(let olderSeat, _)):
            return seat == olderSeat
        case (.phase, .phase), (.activity, .activity):
            return true
        default:
            return false
        }
    }
}

/// A session's changes the store has not taken yet (it could not be reached), oldest first: each is written before
/// any later one. A pure value confined to the session's queue.
///
/// A change that supersedes a held one replaces it (`SessionWrite.supersedes`), so however long the store is away
/// and whatever the phones do meanwhile, a session holds at most one journey per seat, one freed mark per seat freed,
/// one phase and one activity.
struct HeldWrites: Sendable, Equatable {
    private(set) var writes: [SessionWrite] = []

    var isEmpty: Bool { writes.isEmpty }

    /// Queues `write` after the held ones, dropping those it supersedes.
    mutating func append(_ write: SessionWrite) {
        writes.removeAll { write.supersedes($0) }
        writes.append(write)
    }

    /// Writes the held changes in order with `perform` (false: the store could not take it) until one fails;
    /// those written are dropped. Returns whether none is left.
    @discardableResult
    mutating func flush(_ perform: (SessionWrite) -> Bool) -> Bool {
        var written = 0
        while written < writes.count, perform(writes[written]) { written += 1 }
        writes.removeFirst(written)
        return writes.isEmpty
    }
}
