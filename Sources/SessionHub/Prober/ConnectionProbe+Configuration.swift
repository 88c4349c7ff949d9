extension ConnectionProbe {
    /// Timing and thresholds of a connection test. The defaults finish every test within 3 s of its start:
    /// at most 0.8 s idle, a 2 s upload burst, 0.2 s grace for late frames.
    package struct Configuration: Hashable, Sendable {
        /// Time between two pings, idle and under load.
        package var pingInterval: Duration
        /// Pings sent on the idle link (the first at the start).
        package var idlePings: Int
        /// The upload burst is requested when every idle ping is answered, or this long after the start.
        package var idlePhaseLimit: Duration
        /// How long the phone sends filler (`probe.upload {seconds}`).
        package var upload: Duration
        /// Filler arriving within this time of the first filler frame is TCP ramp-up and not measured; pings under
        /// load start this long after the upload request.
        package var rampUp: Duration
        /// Extra time after the upload for late filler frames and pongs.
        package var grace: Duration
        /// Fewer answered idle pings fail the test.
        package var minIdlePongs: Int
        /// Fewer answered pings under load fail the test (0 by default: unanswered ones count with their wait).
        package var minLoadedPongs: Int

        package init(pingInterval: Duration = .milliseconds(80), idlePings: Int = 10,
                     idlePhaseLimit: Duration = .milliseconds(800), upload: Duration = .seconds(2),
                     rampUp: Duration = .milliseconds(400), grace: Duration = .milliseconds(200),
                     minIdlePongs: Int = 5, minLoadedPongs: Int = 0) {
            self.pingInterval = max(pingInterval, .milliseconds(1))
            self.idlePings = max(1, idlePings)
            self.idlePhaseLimit = idlePhaseLimit
            self.upload = upload
            self.rampUp = rampUp
            self.grace = grace
            self.minIdlePongs = max(1, minIdlePongs)
            self.minLoadedPongs = max(0, minLoadedPongs)
        }

        /// The longest a test can take from `start` to its result.
        package var maximumDuration: Duration { idlePhaseLimit + upload + grace }

        /// Most pings one test can send (sizes the ping table once).
        var maximumPings: Int {
            let loadedSpan = max(.zero, upload - rampUp)
            return idlePings + Int(ProbeTime.nanoseconds(loadedSpan) / ProbeTime.nanoseconds(pingInterval)) + 1
        }
    }
}
