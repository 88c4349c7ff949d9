import PongWire

/// What a phone tells the run about itself (called from the phone's event loop; implementations lock).
protocol PhoneEvents: AnyObject, Sendable {
    /// The lobby showed the phone ready.
    func phoneReady(session: Int)
    /// The phone has streamed its `--duration` (it goes on streaming until the run stops it), or it failed.
    func phoneStreamedEnough(session: Int)
    /// The phone's journey ended; `error` is nil when it ended as planned; `wasReady` if the lobby had shown it ready.
    func phoneFinished(session: Int, error: SimError?, wasReady: Bool)
    /// The phone's connection test finished with `result`.
    func phoneTested(session: Int, result: ConnectionTestResult)
}

/// How phones behave beyond the journey: streaming length, chaos, filler rate.
struct PhoneSettings: Sendable {
    /// Seconds each phone streams at least, from its first audio packet.
    var duration: Double
    /// Seconds from a phone's start within which it must have sent `ready`, else its journey fails (`timeout`).
    var readyTimeout: Double = 300
    /// Abrupt socket drops per phone per minute once ready (0: none).
    var chaosDropsPerMinute: Double = 0
    /// Uniform numbers in (0, 1) that chaos timing is drawn from (a test fixes them).
    var chaosUniform: @Sendable () -> Double = { Double.random(in: Double.ulpOfOne..<1) }
    /// Uniform numbers in [0, 1) that reconnect backoff jitter is drawn from.
    var jitter: @Sendable () -> Double = { Double.random(in: 0..<1) }
    /// Phones 0..<N vanish once (stop reading and answering pings, no FIN) `vanishAfter` s after sending `ready`,
    /// for `vanishFor` s, then resume on a new socket.
    var vanishCount = 0
    var vanishAfter: Double = 10
    var vanishFor: Double = 20
    /// Cap of the upload-probe filler in bytes per second (0: as fast as the socket drains).
    var fillerBytesPerSecond: Double = 10_000_000 / 8
    /// Spread phones over this many loopback source addresses, 127.0.0.2 and up (1: the system's choice), so a
    /// loopback server's per-address join limit does not serialize a load run.
    var sourceAddresses = 1

    /// The local address phone `index` connects from, or nil.
    func sourceAddress(phone index: Int) -> String? {
        sourceAddresses > 1 ? "127.0.0.\(2 + index % sourceAddresses)" : nil
    }

    /// Payload bytes of one filler frame.
    var fillerFrameBytes = 16 * 1024 {
        didSet { fillerPayload = [UInt8](repeating: 0x5A, count: fillerFrameBytes) }
    }
    /// One filler payload, built once: contiguous bytes are copied with one memcpy per frame (a lazy
    /// `repeatElement` collection costs a generic call per byte and made the sim its own bottleneck).
    private(set) var fillerPayload = [UInt8](repeating: 0x5A, count: 16 * 1024)
}
