import PongWire

/// Rate-limits the `error` messages that answer binary frames ("media errors": frame errors, `out_of_order` before
/// `hello`, `stream_not_started`, `codec_mismatch`, `undecodable_media`, `dashboard_read_only`): at most one per `interval` per socket, so a
/// phone that keeps sending unusable frames is not answered frame for frame. The frames are dropped (and counted in
/// the metrics) either way.
///
/// Pure: no clock reads; `LiveSession` keeps one on its queue, passes `now`, and forgets a socket when it closes.
package struct MediaErrorThrottle: Sendable {
    /// Least time between two media errors sent to one socket (zero: no limit).
    private let interval: Duration
    /// When each socket was last sent a media error.
    private var lastSent: [ConnectionID: ContinuousClock.Instant] = [:]

    /// A throttle allowing one media error per socket per `interval`.
    package init(interval: Duration) {
        self.interval = interval
    }

    /// Whether a media error may be sent to `socket` at `now`; when it may, `now` is noted as its last one.
    package mutating func mayReport(to socket: ConnectionID, now: ContinuousClock.Instant) -> Bool {
        if let last = lastSent[socket], now - last < interval { return false }
        lastSent[socket] = now
        return true
    }

    /// Forgets a closed socket.
    package mutating func forget(_ socket: ConnectionID) {
        lastSent.removeValue(forKey: socket)
    }
}
