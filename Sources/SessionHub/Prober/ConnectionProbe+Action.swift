import PongWire

extension ConnectionProbe {
    /// What the owner must do, in order.
    package enum Action: Hashable, Sendable {
        /// Send `probe.ping {id, t}` to the player now.
        case sendPing(ProbeStamp)
        /// Send `probe.upload {seconds}` to the player now: the upload burst starts.
        case requestUpload(ProbeUpload)
        /// (Re)arm the probe's single timer to call `tick(now:)` at this instant, replacing any earlier arming.
        case wakeUp(at: ContinuousClock.Instant)
        /// The test is over: hand the result to `SessionState.connectionTestCompleted(_:_:now:)`.
        case completed(ConnectionTestResult)
        /// The test is over without a result: call `SessionState.connectionTestFailed(_:now:)`.
        case failed(ConnectionProbeFailure)

        /// The message to write to the player's socket, for `sendPing` and `requestUpload`.
        package var serverMessage: ServerMessage? {
            switch self {
            case .sendPing(let stamp): .probePing(stamp)
            case .requestUpload(let upload): .probeUpload(upload)
            case .wakeUp, .completed, .failed: nil
            }
        }
    }
}
