import Histogram
import NIOConcurrencyHelpers
import PongWire

/// Everything the run measures, shared by all phones' event loops behind a lock. What every packet or bounce
/// changes is counted per phone (`PhoneStats`) and merged here at the end.
///
/// Latencies are kept in microseconds in HdrHistograms (3 significant digits) and reported in ms.
final class SimStats: Sendable {
    /// The counters and histograms themselves.
    struct Values: Sendable {
        /// Phones started.
        var players = 0
        /// Phones that sent `ready`.
        var readySent = 0
        /// Phones the lobby showed ready.
        var ready = 0
        /// Phones whose journey failed.
        var failed = 0
        /// Errors by code: every `error` message, every HTTP error status (by its body's code) and transport failure.
        var errors: [String: Int] = [:]
        /// Sockets re-opened after a drop (chaos or unexpected) with `hello {resumeToken}`.
        var reconnects = 0
        /// Audio packets sent (merged from the phones).
        var audioPackets = 0
        /// Filler bytes sent (merged from the phones).
        var fillerBytes = 0
        /// `bounce` events for the receiving phone's own player (merged from the phones).
        var bounces = 0
        /// Bounces whose packet was no longer in the latency ring (merged from the phones).
        var bouncesUnmapped = 0
        /// Sessions whose host started the game.
        var sessionsStarted = 0
        /// Connection-test results: upload Mbps of each.
        var uploadMbps: [Double] = []
        /// Join → ready, µs.
        var joinToReady = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
        /// How late the sim sent audio packets after they fell due, µs (the sim's own health: high values mean
        /// the machine running it cannot keep up; merged from the phones).
        var sendLag = Histogram<UInt64>(highestTrackableValue: maxLatencyMicros, numberOfSignificantValueDigits: .two)
        /// Bounce latency, µs (merged from the phones).
        var bounceLatency = Histogram<UInt64>(highestTrackableValue: maxLatencyMicros,
                                              numberOfSignificantValueDigits: .three)
        /// Bounce scores summed over phones.
        var score = BounceScorer.Score()
        /// Sockets the server closed with 4100 (restarting).
        var restartCloses = 0
        /// Seats resumed after a 4100 or drop (`welcome` after `hello {resumeToken}`), and after a 4100 only.
        var resumed = 0
        var resumedAfterRestart = 0
        /// Socket lost (4100 or drop) → seat resumed, µs; after a 4100 only.
        var reconnectTime = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
        var restartReconnectTime = Histogram<UInt64>(highestTrackableValue: 3_600_000_000,
                                                     numberOfSignificantValueDigits: .three)
        /// The first and last resume after a 4100 (for the spread of one restart's resumes).
        var firstRestartResume: MonoTime?
        var lastRestartResume: MonoTime?
        /// Own bounces heard, and audio packets sent, after a restart resume (merged from the phones).
        var bouncesAfterRestart = 0
        var audioAfterRestart = 0
        /// Phones that vanished (`--vanish-count`), those another phone's lobby showed `reconnecting`, and
        /// vanish → lobby `reconnecting`, µs.
        var vanishes = 0
        var vanishesSeen = 0
        var vanishToReconnecting = Histogram<UInt64>(highestTrackableValue: 3_600_000_000,
                                                     numberOfSignificantValueDigits: .three)
        /// Vanished players not yet seen `reconnecting`, with the instant they vanished.
        var vanishedAt: [PlayerID: MonoTime] = [:]
        /// The `--server` nodes (`host:port`, in order; the report lists each, zero counts included).
        var servers: [String] = []
        /// Joins answered (2xx) by each `--server` node.
        var joinsByServer: [String: Int] = [:]
        /// Phones by the node (`host:port` of the socket URL) their last `welcome` came from, at the end of the run;
        /// phones lost then are in `neverBack` instead.
        var phonesByNode: [String: Int] = [:]
        /// 4101 closes followed to the node in their reason.
        var moves = 0
        /// Failovers (a socket lost unexpectedly, the seat resumed on another node) and their times, loss →
        /// `welcome` (the stream is back with it), µs.
        var failovers = 0
        var failoverTime = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
        /// Phones whose socket was lost and whose seat never resumed (the journey failed, or the run ended first).
        var neverBack = 0

        /// Total errors.
        var errorTotal: Int { errors.values.reduce(0, +) }
    }

    /// Send lags and bounce latencies above this (10 minutes, in µs) are not recorded.
    static let maxLatencyMicros: UInt64 = 600_000_000

    private let box = NIOLockedValueBox(Values())

    init() {}

    /// Changes the values under the lock.
    func update(_ body: (inout Values) -> Void) {
        box.withLockedValue { body(&$0) }
    }

    /// A copy of the values.
    var snapshot: Values { box.withLockedValue { $0 } }

    /// A phone vanished at `at`.
    func vanished(_ player: PlayerID, at: MonoTime) {
        update {
            $0.vanishes += 1
            $0.vanishedAt[player] = at
        }
    }

    /// A lobby showed `players` turning `reconnecting` at `at`: a vanished one's delay is recorded (once).
    func sawReconnecting(_ players: [PlayerID], at: MonoTime) {
        update { values in
            for player in players {
                guard let since = values.vanishedAt.removeValue(forKey: player) else { continue }
                values.vanishesSeen += 1
                _ = values.vanishToReconnecting.record(Self.micros(at.seconds(since: since)))
            }
        }
    }

    /// A seat resumed `seconds` after its socket was lost (`restart`: to a 4100).
    func resumed(afterSeconds seconds: Double, restart: Bool, at: MonoTime) {
        update { values in
            values.resumed += 1
            _ = values.reconnectTime.record(Self.micros(seconds))
            guard restart else { return }
            values.resumedAfterRestart += 1
            _ = values.restartReconnectTime.record(Self.micros(seconds))
            values.firstRestartResume = min(values.firstRestartResume ?? at, at)
            values.lastRestartResume = max(values.lastRestartResume ?? at, at)
        }
    }

    /// A join was answered (2xx) by `server`.
    func joinAnswered(by server: ServerAddress) {
        update { $0.joinsByServer[server.node, default: 0] += 1 }
    }

    /// A seat resumed on another node `seconds` after its socket was lost.
    func failedOver(afterSeconds seconds: Double) {
        update {
            $0.failovers += 1
            _ = $0.failoverTime.record(Self.micros(seconds))
        }
    }

    /// A phone's state at the end of the run: the node of its last `welcome`, or lost.
    func phoneEnded(node: String?, lost: Bool) {
        update { values in
            if lost {
                values.neverBack += 1
            } else if let node {
                values.phonesByNode[node, default: 0] += 1
            }
        }
    }

    /// Counts one error by its code.
    func countError(_ code: String) {
        update { $0.errors[code, default: 0] += 1 }
    }

    /// Records a latency in seconds, in µs (negative values, impossible with a monotonic clock, as 0).
    static func micros(_ seconds: Double) -> UInt64 { UInt64(max(0, seconds * 1e6)) }
}
