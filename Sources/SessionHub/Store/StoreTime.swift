#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Timestamps as the store keeps them: whole milliseconds since 1970 in INTEGER columns.
///
/// Record initializers round their dates with `rounded(_:)`, so a record reads back equal to the one written.
package enum StoreTime {
    /// `date` rounded to the nearest millisecond.
    package static func rounded(_ date: Date) -> Date {
        self.date(milliseconds: milliseconds(date))
    }

    /// Milliseconds since 1970 (clamped to `Int64` for dates beyond it).
    static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        if let exact = Int64(exactly: value) { return exact }
        return value > 0 ? .max : .min
    }

    /// The date `milliseconds` after 1970.
    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
