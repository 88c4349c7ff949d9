/// `connectionTest {uploadMbps, rttMs: {median, p90}, rttUnderLoadMs: {median, p90}, jitterMs, grade}`.
///
/// `grade` is the upload bandwidth's (see `ConnectionGrade`); latency over 100 ms is a readiness warning of its own.
package struct ConnectionTestResult: Codable, Hashable, Sendable {
    /// Median and 90th percentile of round-trip times, in ms.
    package struct RoundTrip: Codable, Hashable, Sendable {
        /// Median, ms.
        package var median: Double
        /// 90th percentile, ms.
        package var p90: Double

        package init(median: Double, p90: Double) {
            self.median = median
            self.p90 = p90
        }
    }

    /// Measured upload rate.
    package var uploadMbps: Double
    /// Round trips on an idle link.
    package var rttMs: RoundTrip
    /// Round trips during the upload burst.
    package var rttUnderLoadMs: RoundTrip
    /// Mean variation between consecutive round trips, ms.
    package var jitterMs: Double
    /// The upload bandwidth's grade.
    package var grade: ConnectionGrade

    /// A result graded from `uploadMbps`.
    package init(uploadMbps: Double, rttMs: RoundTrip, rttUnderLoadMs: RoundTrip, jitterMs: Double) {
        self.uploadMbps = uploadMbps
        self.rttMs = rttMs
        self.rttUnderLoadMs = rttUnderLoadMs
        self.jitterMs = jitterMs
        self.grade = ConnectionGrade(uploadMbps: uploadMbps)
    }
}
