import PongWire

// Round-trip statistics of a connection test: median, 90th percentile and jitter, in ms.

enum RoundTripStats {
    /// The `p`-quantile (0...1) of `sorted` (ascending), interpolating linearly between neighbours
    /// (`numpy.percentile`'s default); 0 for no samples.
    static func quantile(_ sorted: [Double], _ p: Double) -> Double {
        guard let first = sorted.first else { return 0 }
        guard sorted.count > 1 else { return first }
        let position = min(max(p, 0), 1) * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }

    /// Median and p90 of `samples` (ms, any order), rounded to 0.1 ms.
    static func roundTrip(_ samples: [Double]) -> ConnectionTestResult.RoundTrip {
        let sorted = samples.sorted()
        return ConnectionTestResult.RoundTrip(
            median: ProbeTime.rounded(quantile(sorted, 0.5), places: 1),
            p90: ProbeTime.rounded(quantile(sorted, 0.9), places: 1))
    }

    /// Mean absolute difference between consecutive samples (ms, in ping order), rounded to 0.1 ms;
    /// 0 for fewer than two samples.
    static func jitter(_ samples: [Double]) -> Double {
        guard samples.count > 1 else { return 0 }
        var total = 0.0
        for index in 1..<samples.count { total += abs(samples[index] - samples[index - 1]) }
        return ProbeTime.rounded(total / Double(samples.count - 1), places: 1)
    }
}
