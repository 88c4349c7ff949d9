import Foundation

/// How a phone reconnects (docs/PROTOCOL.md, "Restarts and reconnecting"): after a drop, or a close it may retry
/// (4005, 4008, 4100–4199), attempt *n* (from 0) waits `min(max(5 s, start), start · 2ⁿ · (1 + u/2))` with `u`
/// uniform in [0, 1): up to 50 % jitter, so phones dropped together do not come back together. `start` is the delay
/// a close reason hints at (`retry in N s`: 4100's 1 s, 4129's), else 1 s after a 4100 and 0.25 s after anything
/// else. A `welcome` (the seat resumed) starts the attempts over. Pure: the caller draws `u`.
package struct ReconnectBackoff: Hashable, Sendable {
    /// The first delay after a drop.
    package static let firstDelay = 0.25
    /// The longest delay, jitter included.
    package static let maxDelay = 5.0

    /// Attempts made since the last success.
    package private(set) var attempt = 0
    /// The first delay of the current series, seconds.
    private var start = ReconnectBackoff.firstDelay

    package init() {}

    /// The socket closed (or an attempt failed) with `code` and `reason`: the seconds to wait before the next
    /// attempt; `uniform` is a random number in [0, 1).
    package mutating func nextDelay(code: UInt16? = nil, reason: String? = nil, uniform: Double) -> Double {
        if attempt == 0 {
            let fallback = code == CloseCode.serverRestarting.code
                ? Self.seconds(CloseCode.restartRetryHint) : Self.firstDelay
            start = reason.flatMap(Self.retryHint(in:)) ?? fallback
        }
        let growth = Double(1 << min(attempt, 16))
        attempt += 1
        return min(max(Self.maxDelay, start), start * growth * (1 + min(max(uniform, 0), 1) / 2))
    }

    /// The seat resumed (`welcome`): the next drop starts from the first delay again.
    package mutating func succeeded() {
        attempt = 0
    }

    /// The seconds of a `retry in N s` hint in a close reason (0–3600), or nil.
    package static func retryHint(in reason: String) -> Double? {
        guard let range = reason.range(of: "retry in ") else { return nil }
        let number = reason[range.upperBound...].prefix { $0.isNumber || $0 == "." }
        guard let seconds = Double(number), (0...3600).contains(seconds) else { return nil }
        return seconds
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
