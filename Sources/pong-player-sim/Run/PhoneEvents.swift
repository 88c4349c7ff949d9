import SessionHub

/// What a phone tells the run about itself (called from the phone's event loop; implementations lock).
protocol PhoneEvents: AnyObject, Sendable {
    /// The lobby showed the phone ready.
    func phoneReady(session: Int)
    /// The phone stopped streaming (its `--duration` is over).
    func phoneStopped(session: Int)
    /// The phone's journey ended; `error` is nil when it ended as planned; `wasReady` if the lobby had shown it ready.
    func phoneFinished(session: Int, error: SimError?, wasReady: Bool)
    /// The phone's connection test finished with `result`.
    func phoneTested(session: Int, result: ConnectionTestResult)
}

/// How phones behave beyond the journey: streaming length, chaos, filler rate.
struct PhoneSettings: Sendable {
    /// Seconds each phone streams after its audio starts.
    var duration: Double
    /// Abrupt socket drops per phone per minute once ready (0: none).
    var chaosDropsPerMinute: Double = 0
    /// Cap of the upload-probe filler in bytes per second (0: as fast as the socket drains).
    var fillerBytesPerSecond: Double = 20_000_000 / 8
    /// Payload bytes of one filler frame.
    var fillerFrameBytes = 16 * 1024
}
