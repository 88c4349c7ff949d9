import Foundation
import PongWire

/// Where a live session's acknowledged changes are written: each call returns once the change is in the store, and
/// `LiveSession.perform` makes them before it performs the actions that tell anyone about them (a reply, a lobby, a
/// close). So a kill -9 right after any acknowledgment loses nothing it acknowledged, and brings back nothing it
/// ended. Called on the session's queue.
struct SessionRecorder: Sendable {
    /// A seat's journey changed.
    var journey: @Sendable (PlayerID, PlayerJourney.Snapshot) -> Void
    /// A seat was left or freed at this wall time: it must not come back after a restart.
    var seatFreed: @Sendable (PlayerID, Date) -> Void
    /// The session's phase changed (started, or ended) at this wall time.
    var phase: @Sendable (SessionPhase, Date) -> Void
    /// The session is in use at this wall time (coalesced by the caller: see `activityInterval`).
    var activity: @Sendable (Date) -> Void

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
