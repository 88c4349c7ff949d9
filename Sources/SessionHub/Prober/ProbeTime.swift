// Duration conversions for the prober and the rate meter, in integers where exactness matters.

enum ProbeTime {
    /// Whole microseconds in `duration`, truncated toward zero.
    static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1_000_000 &+ attoseconds / 1_000_000_000_000
    }

    /// Whole nanoseconds in `duration`, truncated toward zero.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }

    /// `duration` in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// `duration` in milliseconds.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// `value` rounded to `places` decimals (for values shown to people: 12.4 ms, 7.99 Mbps).
    static func rounded(_ value: Double, places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<max(0, places) { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
