import Foundation
import PongWire

/// Where a live session's acknowledged changes are written: `write` returns once the change is in the store, and
/// `LiveSession.perform` makes them before it performs the actions that tell anyone about them (a reply, a lobby, a
/// close). So a kill -9 right after any acknowledgment loses nothing it acknowledged, and brings back nothing it
/// ended. Called on the session's queue.
///
/// While the store cannot take a change (`write` returns false: PostgreSQL out of reach, or a write failed with
/// `StoreError.io`), the session holds it (`HeldWrites`) and writes it, before any later change, with its next
/// change or when `LiveSession.retryHeldWrites` is called (the store is back).
struct SessionRecorder: Sendable {
    /// Writes one change; false when the store could not take it (it is held and written again later). A change
    /// the store refuses for good (a constraint) is logged and counts as done: writing it again would not help.
    var write: @Sendable (SessionWrite) -> Bool
    /// Told when the session starts (true) or stops (false) holding changes the store has not taken.
    var holding: @Sendable (Bool) -> Void = { _ in }

    /// The wall clock the recorded times come from.
    var now: @Sendable () -> Date = { Date() }

    /// Least wall time between two activity writes of one session: a minute, or a quarter of a shorter idle timeout
    /// (a session in use must never look idle to the next start-up), so a busy session costs one write a minute.
    var activityInterval: TimeInterval = 60

    /// The activity interval for sessions that end after `idleTimeout` without an event.
    static func activityInterval(idleTimeout: Duration) -> TimeInterval {
        let idle = Double(idleTimeout.components.seconds) + Double(idleTimeout.components.attoseconds) * 1e-18
        return min(60, idle / 4)
    }
}
