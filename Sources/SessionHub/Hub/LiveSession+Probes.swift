import Dispatch
import PongWire

/// Connection tests: one `ConnectionProbe` per player under test, driven on the session's queue.
extension LiveSession {
    /// Starts (or restarts) a player's connection test.
    func startProbe(for player: PlayerID) {
        stopProbe(for: player)
        let now = ContinuousClock.now
        var probe = ConnectionProbe(epoch: now)
        let actions = probe.start(now: now)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        // A @Sendable handler set from nonisolated code (see DESIGN.md, Threading).
        timer.setEventHandler { [weak self] in self?.probeWokeUp(player) }
        timer.resume()
        probes[player] = (probe, timer)
        performProbe(actions, for: player)
    }

    /// Abandons a player's test, if one runs.
    func stopProbe(for player: PlayerID) {
        probes.removeValue(forKey: player)?.timer.cancel()
    }

    /// A `probe.pong` arrived.
    func probePong(_ player: PlayerID, _ stamp: ProbeStamp, receivedAt: ContinuousClock.Instant) {
        guard var entry = probes[player] else { return }
        let actions = entry.probe.pong(stamp, now: receivedAt)
        probes[player] = entry
        performProbe(actions, for: player)
    }

    /// Upload-probe filler arrived from a player's socket.
    func fillerArrived(from player: PlayerID, bytes: Int, at now: ContinuousClock.Instant) {
        guard var entry = probes[player] else { return }
        entry.probe.fillerReceived(bytes: bytes, now: now)
        probes[player] = entry
    }

    private func probeWokeUp(_ player: PlayerID) {
        guard var entry = probes[player] else { return }
        let actions = entry.probe.tick(now: .now)
        probes[player] = entry
        performProbe(actions, for: player)
    }

    private func performProbe(_ actions: [ConnectionProbe.Action], for player: PlayerID) {
        for action in actions {
            switch action {
            case .sendPing, .requestUpload:
                if let message = action.serverMessage, let socket = state.seats[player]?.connection {
                    send(message, to: socket)
                }
            case .wakeUp(let deadline):
                probes[player]?.timer.schedule(deadline: Self.dispatchTime(at: deadline), leeway: .milliseconds(1))
            case .completed(let result):
                stopProbe(for: player)
                logger.info("connection test", metadata: [
                    "player.id": "\(player)", "upload.mbps": "\(result.uploadMbps)", "grade": "\(result.grade)",
                ])
                perform(state.connectionTestCompleted(player, result, now: .now))
            case .failed(let reason):
                stopProbe(for: player)
                logger.info("connection test failed", metadata: ["player.id": "\(player)", "reason": "\(reason)"])
                perform(state.connectionTestFailed(player, reason.report, now: .now))
            }
        }
    }
}
