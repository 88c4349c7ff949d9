import Histogram

/// One phone's high-rate measurements: every audio packet, filler burst and own `bounce`. Kept by the phone on its
/// own loop without a lock (`PhoneDriver.counters`) and merged into the run's `SimStats` at the end, so the shared
/// lock is not taken per packet.
struct PhoneStats: Sendable {
    /// Audio packets sent.
    var audioPackets = 0
    /// Filler bytes sent.
    var fillerBytes = 0
    /// `bounce` events for the phone's own player.
    var bounces = 0
    /// Own bounces whose packet was no longer in the latency ring.
    var bouncesUnmapped = 0
    /// Own bounces heard, and audio packets sent, after the seat resumed from a server restart.
    var bouncesAfterRestart = 0
    var audioAfterRestart = 0
    /// Latency of each mapped bounce, µs (a few a second: kept as values, merged into the run's histogram).
    var bounceLatencies: [UInt64] = []
    /// How late audio packets were sent after they fell due, µs. Grows with the values recorded (a phone's is small);
    /// values past `SimStats.maxLatencyMicros` are dropped, as the run's histogram drops them.
    var sendLag = Histogram<UInt64>(numberOfSignificantValueDigits: .two)

    /// An audio packet went out `lag` µs after it fell due.
    mutating func audioSent(lag: UInt64) {
        audioPackets += 1
        if lag <= SimStats.maxLatencyMicros { sendLag.record(lag) }
    }

    /// An own bounce arrived; `latency` in seconds, nil when its packet could not be found.
    mutating func bounceHeard(latency: Double?) {
        bounces += 1
        if let latency {
            bounceLatencies.append(SimStats.micros(latency))
        } else {
            bouncesUnmapped += 1
        }
    }
}

extension SimStats.Values {
    /// Adds one phone's measurements.
    mutating func merge(_ phone: PhoneStats) {
        audioPackets += phone.audioPackets
        fillerBytes += phone.fillerBytes
        bounces += phone.bounces
        bouncesUnmapped += phone.bouncesUnmapped
        bouncesAfterRestart += phone.bouncesAfterRestart
        audioAfterRestart += phone.audioAfterRestart
        for latency in phone.bounceLatencies { bounceLatency.record(latency) }
        sendLag.add(phone.sendLag)
    }
}
