import NIOCore

/// A player's stream of one kind.
struct StreamKey: Hashable, Sendable {
    var player: PlayerID
    var kind: MediaKind
}

/// Binary frames from a player's socket: probe filler for the prober; the first audio or video frame of a stream
/// marks it live. (Decoding and bounce detection of the audio is issue [4/4].)
extension LiveSession {
    /// Handles one parsed frame from `connection`; a frame out of place gets an `error` message.
    func mediaFrame(_ frame: MediaFrame, from connection: ConnectionID) {
        let now = ContinuousClock.now
        queue.async {
            guard case .player(let player, let greeted)? = self.state.sockets[connection], greeted else {
                self.send(.error(.outOfOrder("Say hello before sending media")), to: connection)
                return
            }
            switch frame.kind {
            case .uploadFiller:
                self.fillerArrived(from: player, bytes: frame.byteCount, at: now)
            case .audio, .video:
                let kind: MediaKind = frame.kind == .audio ? .audio : .video
                let key = StreamKey(player: player, kind: kind)
                guard !self.liveStreams.contains(key) else { return }
                let journey = self.state.seats[player]?.journey
                guard let journey, (kind == .audio ? journey.audio : journey.video) != .off else {
                    self.send(.error(.streamNotStarted), to: connection)
                    return
                }
                self.liveStreams.insert(key)
                self.perform(self.state.mediaChanged(player, kind, to: .live, now: now))
            }
        }
    }
}
