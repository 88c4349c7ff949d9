import PongWire

extension ConnectionProbe {
    /// The test's end: the result from the pongs and the filler, or why there is none.
    ///
    /// A ping sent under load that is still unanswered when the window closes counts with the time it has waited: on
    /// a slow uplink the phone's pongs queue behind its own filler (that delay is what latency under load measures),
    /// so the figure is a lower bound rather than a reason to fail.
    func outcome(requestedAt: ContinuousClock.Instant) -> Action {
        let windowEnd = requestedAt + configuration.upload + configuration.grace
        var idle: [Double] = []
        var loaded: [Double] = []
        var answeredUnderLoad = 0
        for ping in pings {
            if ping.underLoad {
                if ping.roundTrip != nil { answeredUnderLoad += 1 }
                loaded.append(ProbeTime.milliseconds(ping.roundTrip ?? (windowEnd - ping.sentAt)))
            } else if let roundTrip = ping.roundTrip {
                idle.append(ProbeTime.milliseconds(roundTrip))
            }
        }
        guard idle.count >= configuration.minIdlePongs else {
            return .failed(.tooFewPongs(received: idle.count, needed: configuration.minIdlePongs))
        }
        guard answeredUnderLoad >= configuration.minLoadedPongs, !loaded.isEmpty else {
            return .failed(.tooFewPongsUnderLoad(received: answeredUnderLoad, needed: configuration.minLoadedPongs))
        }
        guard let mbps = filler.uploadMbps(requestedAt: requestedAt) else { return .failed(.noFiller) }
        let result = ConnectionTestResult(
            uploadMbps: ProbeTime.rounded(mbps, places: 2),
            rttMs: RoundTripStats.roundTrip(idle),
            rttUnderLoadMs: RoundTripStats.roundTrip(loaded),
            jitterMs: RoundTripStats.jitter(idle))
        return .completed(result)
    }
}
