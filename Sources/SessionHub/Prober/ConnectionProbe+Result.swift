extension ConnectionProbe {
    /// The test's end: the result from the pongs and the filler, or why there is none.
    func outcome(requestedAt: ContinuousClock.Instant) -> Action {
        var idle: [Double] = []
        var loaded: [Double] = []
        for ping in pings {
            guard let roundTrip = ping.roundTrip else { continue }
            if ping.underLoad {
                loaded.append(ProbeTime.milliseconds(roundTrip))
            } else {
                idle.append(ProbeTime.milliseconds(roundTrip))
            }
        }
        guard idle.count >= configuration.minIdlePongs else {
            return .failed(.tooFewPongs(received: idle.count, needed: configuration.minIdlePongs))
        }
        guard loaded.count >= configuration.minLoadedPongs else {
            return .failed(.tooFewPongsUnderLoad(received: loaded.count, needed: configuration.minLoadedPongs))
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
