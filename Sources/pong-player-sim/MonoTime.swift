/// An instant on the simulator's monotonic clock, in nanoseconds (the value of `NIODeadline.uptimeNanoseconds`).
///
/// State machines take it as an argument and never read a clock, so tests drive them with made-up instants.
struct MonoTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since an arbitrary origin.
    var nanoseconds: UInt64

    init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    /// An instant `seconds` after the origin (tests).
    static func seconds(_ seconds: Double) -> MonoTime { MonoTime(nanoseconds: UInt64(seconds * 1e9)) }

    /// This instant in µs (a phone's capture clock).
    var microseconds: UInt64 { nanoseconds / 1000 }

    /// `self` moved by `seconds` (never before the origin). Durations come from the server too (`Retry-After`,
    /// `probe.upload`), so a non-finite one counts as 0 and any is clamped to ±11 days instead of trapping.
    func adding(seconds: Double) -> MonoTime {
        let bounded = seconds.isFinite ? min(max(seconds, -1e6), 1e6) : 0
        let delta = Int64(bounded * 1e9)
        return MonoTime(nanoseconds: UInt64(max(0, Int64(nanoseconds) + delta)))
    }

    /// Seconds from `earlier` to `self` (negative when `earlier` is later).
    func seconds(since earlier: MonoTime) -> Double {
        (Double(nanoseconds) - Double(earlier.nanoseconds)) / 1e9
    }

    static func < (lhs: MonoTime, rhs: MonoTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    var description: String { "\(Double(nanoseconds) / 1e9)s" }
}
