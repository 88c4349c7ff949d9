import BounceDetector
import Dispatch
import PongWire

/// `POST /streams/start` and the stream monitor's clock: the tracks a player starts get a `PlayerStreams`, and one
/// timer per session ticks every monitor (failures, the `stream` report each second) while any stream exists.
extension LiveSession {
    /// How often the monitors are ticked (failures are noticed at most this late).
    static let monitorTick = DispatchTimeInterval.milliseconds(250)

    /// Starts (or restarts) `user`'s tracks; `completion` gets the stream id or the error the request answers with.
    func startStreams(user: UserID, request: StreamStartRequest, streamId: String,
                      completion: @escaping @Sendable (Result<String, APIError>) -> Void) {
        queue.async {
            let now = ContinuousClock.now
            do throws(APIError) {
                // The decoders first: if one cannot open, the journey must not say the tracks started.
                let streams: PlayerStreams
                do {
                    streams = try PlayerStreams(request: request, now: now, configuration: self.monitorConfiguration)
                } catch {
                    self.logger.error("cannot open a stream's decoder", metadata: ["error": "\(error)"])
                    throw .internal
                }
                let actions = try self.state.streamStarted(user: user, request: request, now: now)
                guard let player = self.state.playerID(of: user) else { throw .notJoined }
                self.streams[player] = streams
                self.armMonitor()
                self.logger.info("streams started", metadata: [
                    "player.id": "\(player)", "stream.id": "\(streamId)",
                    "video": "\(request.video?.codec.rawValue ?? "none")",
                    "audio": "\(request.audio?.codec.rawValue ?? "none")",
                ])
                self.perform(actions)
                completion(.success(streamId))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// After a restart: reopens the decoders of every seat whose journey had started tracks, from the kept
    /// `POST /streams/start` body (stream time starts again at 0; the monitor gives the phone its start timeout).
    func reopenStreams() {
        queue.async {
            let now = ContinuousClock.now
            for (player, seat) in self.state.seats {
                // A journey keeps the request only while it has started tracks (`PlayerJourney(restoring:)`).
                guard let request = seat.journey.streamRequest else { continue }
                do {
                    self.streams[player] = try PlayerStreams(request: request, now: now,
                                                             configuration: self.monitorConfiguration)
                } catch {
                    self.logger.error("cannot reopen a stream's decoder", metadata: [
                        "player.id": "\(player)", "error": "\(error)",
                    ])
                }
            }
            if !self.streams.isEmpty { self.armMonitor() }
        }
    }

    /// Forgets a player's streams (seat freed, session over).
    func stopStreams(of player: PlayerID) {
        streams.removeValue(forKey: player)
        if streams.isEmpty { disarmMonitor() }
    }

    /// Ticks every monitor: failed tracks go to the journeys, due reports to the players. While a player's socket is
    /// down (the seat is reconnecting) its tracks are held like muted ones: not failed, and given their full timeout
    /// again once it is back.
    func monitorTicked() {
        let now = ContinuousClock.now
        for (player, streams) in self.streams {
            guard let journey = state.seats[player]?.journey else { continue }
            let held = journey.connection == .connected ? journey.muted : LobbySnapshot.Muted(video: true, audio: true)
            perform(streams.monitor.tick(now: now, held: held), for: player)
        }
    }

    private func armMonitor() {
        guard monitorTimer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        // A @Sendable handler set from nonisolated code (see DESIGN.md, Threading).
        timer.setEventHandler { [weak self] in self?.monitorTicked() }
        timer.schedule(deadline: .now() + Self.monitorTick, repeating: Self.monitorTick, leeway: .milliseconds(20))
        timer.resume()
        monitorTimer = timer
    }

    func disarmMonitor() {
        monitorTimer?.cancel()
        monitorTimer = nil
    }
}
