/// The last few audio packets a phone sent: capture-time range (µs, phone clock) and the instant it was due.
///
/// A `bounce` carries the captureTime of the onset; the packet whose range holds it was the one the server needed,
/// so bounce latency = arrival − that packet's due instant (the deadline it was scheduled for, not when the sim got
/// round to sending it, so a late sender does not hide latency: coordinated omission). Fixed capacity, no growth.
struct LatencyRing: Sendable {
    /// One sent packet.
    struct Entry: Hashable, Sendable {
        /// captureTime of the first sample, µs.
        var captureStart: UInt64
        /// captureTime just after the last sample, µs.
        var captureEnd: UInt64
        /// When the packet was due to be sent (its last sample captured).
        var due: MonoTime
    }

    private var entries: [Entry?]
    private var next = 0

    /// A ring of `capacity` packets (1500 = 30 s of 20 ms packets).
    init(capacity: Int = 1500) {
        entries = [Entry?](repeating: nil, count: max(1, capacity))
    }

    /// Remembers a sent packet, forgetting the oldest when full.
    mutating func record(_ entry: Entry) {
        entries[next] = entry
        next = (next + 1) % entries.count
    }

    /// The packet holding `captureTime`, if still remembered.
    func packet(holding captureTime: UInt64) -> Entry? {
        // Newest first: a bounce is usually about one of the last few packets.
        var index = next
        for _ in 0..<entries.count {
            index = index == 0 ? entries.count - 1 : index - 1
            guard let entry = entries[index] else { return nil }
            if entry.captureStart <= captureTime && captureTime < entry.captureEnd { return entry }
            if entry.captureEnd <= captureTime { return nil }  // older entries are earlier still
        }
        return nil
    }

    /// Latency from the due instant of the packet holding `captureTime` to `arrival`, seconds; nil if unknown.
    func latency(captureTime: UInt64, arrival: MonoTime) -> Double? {
        packet(holding: captureTime).map { arrival.seconds(since: $0.due) }
    }
}
