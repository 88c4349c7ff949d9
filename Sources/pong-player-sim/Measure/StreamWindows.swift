/// The stretches of stream time a phone actually sent, in seconds of stream time (stream sample / 48000).
///
/// Packets not sent while the socket was down leave a gap; labels are scored only inside windows (see
/// `BounceScorer`). Consecutive packets extend the open window; a skipped packet closes it.
struct StreamWindows: Hashable, Sendable {
    /// A half-open stretch `[start, end)` of stream time, seconds.
    struct Window: Hashable, Sendable {
        /// First sent sample's stream time.
        var start: Double
        /// Stream time just after the last sent sample.
        var end: Double
    }

    /// Closed and open windows, in order.
    private(set) var windows: [Window] = []

    init() {}

    /// Records a sent packet covering stream samples `[start, start + samples)`.
    mutating func sent(startSample: Int, samples: Int) {
        let start = Double(startSample) / Double(AudioTrack.sampleRate)
        let end = Double(startSample + samples) / Double(AudioTrack.sampleRate)
        if let last = windows.last, abs(last.end - start) < 1e-9 {
            windows[windows.count - 1].end = end
        } else {
            windows.append(Window(start: start, end: end))
        }
    }

    /// Total seconds sent.
    var sentSeconds: Double { windows.reduce(0) { $0 + $1.end - $1.start } }
}
