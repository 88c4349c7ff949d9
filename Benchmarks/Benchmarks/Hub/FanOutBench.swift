import Benchmark
import Foundation
import NIOCore
import NIOPosix
import PongClient

/// Lobby fan-out: one session with `players` seated, connected players (each socket has said `hello`).
///
/// One iteration = player 1 sends `mute` with its audio flag flipped (a lobby change: the server broadcasts a new
/// `lobby` to every player socket); measured from just before the frame is handed to the client's event loop until
/// the last of the `players` sockets has received that `lobby` (arrival stamped in the client's channel handler).
/// `battery` would not do: it changes the sender's readiness but not the lobby, so nothing is broadcast.
/// Triggers are at least `pacing` apart: the server allows 30 text messages a second per socket.
final class FanOutBench: Sendable {
    /// Time from the trigger to the last socket's `lobby`, in whole microseconds.
    static let lastLobby = BenchmarkMetric.custom("last lobby (μs)", polarity: .prefersSmaller,
                                                  useScalingFactor: false)
    /// Least time between two triggers.
    static let pacing: Duration = .milliseconds(40)

    private struct Round: Sendable {
        var audioMuted = false
        var lastSent: ContinuousClock.Instant = .now
    }

    private let server: BenchServer
    private let group: MultiThreadedEventLoopGroup
    private let sockets: [PlayerSocket]
    private let arrivals: Arrivals
    private let triggerPlayer: String
    private let round = Locked(Round())

    private init(server: BenchServer, group: MultiThreadedEventLoopGroup, sockets: [PlayerSocket],
                 arrivals: Arrivals, triggerPlayer: String) {
        self.server = server
        self.group = group
        self.sockets = sockets
        self.arrivals = arrivals
        self.triggerPlayer = triggerPlayer
    }

    /// Starts a server, seats `players` guests with display names in one session, connects their sockets
    /// (`hello`), takes player 1 to the stream-configured step (`mute` needs it), then waits for quiet.
    static func start(players: Int) async throws -> FanOutBench {
        let server = try await BenchServer.start()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let http = try await HTTPConnection.connect(port: server.port, group: group)
        let host = try await http.send(.POST, "/auth/guest", json: "{}").body.decode(GuestReply.self)
        let session = try await http.send(.POST, "/sessions", token: host.token,
                                          json: #"{"mode":"rally","pointsToWin":11}"#).body.decode(SessionReply.self)
        let arrivals = Arrivals(sockets: players)
        var sockets: [PlayerSocket] = []
        var playerIds: [String] = []
        for index in 0..<players {
            let guest = try await http.send(.POST, "/auth/guest", json: "{}").body.decode(GuestReply.self)
            let profile = try await http.send(.POST, "/users/profile", token: guest.token,
                                              json: #"{"displayName":"Player \#(index + 1)"}"#)
            try RequestLoad.expect(200, [profile], "profile")
            let join = try await http.send(.POST, "/sessions/\(session.code)/join", token: guest.token)
                .body.decode(JoinReply.self)
            let socket = try await PlayerSocket.connect(port: server.port,
                                                        pathAndQuery: "\(join.websocketURL)?token=\(guest.token)",
                                                        index: index, arrivals: arrivals, group: group)
            try await socket.send(#"{"type":"hello"}"#)
            sockets.append(socket)
            playerIds.append(join.playerId)
        }
        await http.close()
        try await sockets[0].send(#"{"type":"permissions","camera":"granted","microphone":"granted"}"#)
        try await sockets[0].send(#"{"type":"streamConfig","quality":"720p","fps":30}"#)
        try await waitForQuiet(arrivals)
        return FanOutBench(server: server, group: group, sockets: sockets, arrivals: arrivals,
                           triggerPlayer: playerIds[0])
    }

    /// Waits until nothing has arrived for half a second (the set-up's welcomes, readiness and lobbies), then
    /// drops what arrived.
    private static func waitForQuiet(_ arrivals: Arrivals) async throws {
        let quiet: Duration = .milliseconds(500)
        while arrivals.lastArrival.duration(to: .now) < quiet {
            try await Task.sleep(for: .milliseconds(100))
        }
        try arrivals.clear()
    }

    /// Closes the sockets, stops the server and the client's event loop.
    func stop() async {
        for socket in sockets { await socket.close() }
        await server.stop()
        try? await group.shutdownGracefully()
    }

    /// One trigger and its fan-out; checks afterwards that each socket got exactly the expected `lobby`.
    func measureRound(_ benchmark: Benchmark) async throws {
        let (audioMuted, lastSent) = round.withLock { round in
            round.audioMuted.toggle()
            return (round.audioMuted, round.lastSent)
        }
        try await Task.sleep(until: lastSent + Self.pacing, clock: .continuous)
        let text = #"{"type":"mute","video":false,"audio":\#(audioMuted)}"#
        let received = try arrivals.next(on: group.any(), timeout: .seconds(5))

        benchmark.startMeasurement()
        let sent = ContinuousClock.now
        sockets[0].post(text)
        let messages = try await received.get()
        benchmark.stopMeasurement()

        round.withLock { $0.lastSent = sent }
        let last = messages.compactMap { $0.first?.at }.max() ?? sent
        let elapsed = sent.duration(to: last)
        let microseconds = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) * 1e-12
        benchmark.measurement(Self.lastLobby, Int(microseconds.rounded()))
        try check(messages, audioMuted: audioMuted)
    }

    /// Every socket got exactly one message: a `lobby` with every player, showing the new mute flag.
    private func check(_ messages: [[Arrivals.Message]], audioMuted: Bool) throws {
        for (socket, received) in messages.enumerated() {
            guard received.count == 1, let text = received.first?.text else {
                throw BenchError("socket \(socket) got \(received.count) messages: \(received.map(\.text))")
            }
            let lobby = try JSONDecoder().decode(LobbyMessage.self, from: Data(text.utf8))
            let trigger = lobby.players.first { $0.playerId == triggerPlayer }
            guard lobby.type == "lobby", lobby.players.count == sockets.count,
                  trigger?.stream.muted.audio == audioMuted
            else {
                throw BenchError("socket \(socket) got an unexpected message: \(text)")
            }
        }
    }
}
