/// How a connection test that could not finish ends: `connectionTest {failure, message}` (no measurements).
package struct ConnectionTestFailure: Codable, Hashable, Sendable {
    /// Why: `too_few_pongs`, `too_few_pongs_under_load`, `no_filler` or `interrupted` (the socket dropped mid-test).
    package var failure: String
    /// What the phone shows.
    package var message: String

    /// The phone's text for every failure.
    package static let message = "Connection error, please try again"

    package init(failure: String) {
        self.failure = failure
        self.message = Self.message
    }

    /// The socket dropped while the test ran; told on the next `hello`.
    package static let interrupted = ConnectionTestFailure(failure: "interrupted")
}

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
    /// What a `streamConfig {quality: "auto"}` resolves to on this link: `1080p` when the grade is good, else `720p`.
    package var autoQuality: VideoQuality

    /// A result graded from `uploadMbps`.
    package init(uploadMbps: Double, rttMs: RoundTrip, rttUnderLoadMs: RoundTrip, jitterMs: Double) {
        self.uploadMbps = uploadMbps
        self.rttMs = rttMs
        self.rttUnderLoadMs = rttUnderLoadMs
        self.jitterMs = jitterMs
        self.grade = ConnectionGrade(uploadMbps: uploadMbps)
        self.autoQuality = grade == .good ? .p1080 : .p720
    }
}
