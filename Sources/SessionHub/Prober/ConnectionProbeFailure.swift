import PongWire

/// Why a connection test gave no result. The phone is told the code (`report`: `connectionTest {failure, message}`);
/// the description, with the counts, is for logs.
package struct ConnectionProbeFailure: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Reason: Hashable, Sendable {
        case tooFewPongs(received: Int, needed: Int)
        case tooFewPongsUnderLoad(received: Int, needed: Int)
        case noFiller
    }

    private let reason: Reason

    private init(_ reason: Reason) { self.reason = reason }

    /// Fewer idle pings were answered than the test needs.
    package static func tooFewPongs(received: Int, needed: Int) -> ConnectionProbeFailure {
        ConnectionProbeFailure(.tooFewPongs(received: received, needed: needed))
    }
    /// Fewer pings during the upload burst were answered than the test needs.
    package static func tooFewPongsUnderLoad(received: Int, needed: Int) -> ConnectionProbeFailure {
        ConnectionProbeFailure(.tooFewPongsUnderLoad(received: received, needed: needed))
    }
    /// No upload-probe filler bytes arrived during the upload window.
    package static let noFiller = ConnectionProbeFailure(.noFiller)

    /// A stable snake_case code for logs and metrics.
    package var code: String {
        switch reason {
        case .tooFewPongs: "too_few_pongs"
        case .tooFewPongsUnderLoad: "too_few_pongs_under_load"
        case .noFiller: "no_filler"
        }
    }

    package var description: String {
        switch reason {
        case .tooFewPongs(let received, let needed): "\(code): \(received) of \(needed) idle pongs"
        case .tooFewPongsUnderLoad(let received, let needed): "\(code): \(received) of \(needed) pongs under load"
        case .noFiller: "\(code): no upload-probe filler arrived"
        }
    }

    /// What the phone is sent.
    package var report: ConnectionTestFailure { ConnectionTestFailure(failure: code) }
}
