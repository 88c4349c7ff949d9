import Foundation
import Logging
import ServiceLifecycle
import Testing
@testable import SessionHub
@testable import pong_player_sim

/// The simulator against a real in-process pongd on an ephemeral port: the probe, and a short run with join
/// limiting (429 + Retry-After), chaos drops and bounce scoring.
@Suite("Simulator end to end", .serialized)
struct SimEndToEndTests {
    @Test("probe: one phone's connection test result")
    func probe() async throws {
        let server = try await SimTestServer.start()
        let result = try await ProbeCommand.probe(server: server.address, fillerBytesPerSecond: 20_000_000 / 8,
                                                  timeout: 20)
        #expect(result.uploadMbps > 0)
        #expect(result.rttMs.median >= 0)
        try await server.stop()
    }

    @Test("a run: phones wait out 429s, get ready, the host starts, chaos drops resume, bounces are scored")
    func run() async throws {
        let server = try await SimTestServer.start(joinBurst: 1, joinsPerSecond: 1)
        let (track, labels) = try Self.clickTrack()
        var settings = PhoneSettings(duration: 5)
        settings.chaosDropsPerMinute = 12
        settings.chaosUniform = { 0.5 }  // every ready phone drops 3.5 s after the last drop (or being ready), for 1.75 s
        let plan = SimRunner.Plan(servers: [server.address], sessions: 1, playersPerSession: 3, track: track,
                                  labels: labels, ramp: 0, settings: settings, signUpEvery: 3, progressEvery: 60,
                                  runTag: "e2e\(UInt32.random(in: 0...UInt32.max))")
        let values = try await SimRunner(plan: plan).run()
        #expect(values.players == 3)
        #expect(values.ready == 3)
        #expect(values.failed == 0)
        #expect(values.sessionsStarted == 1)
        #expect((values.errors["too_many_attempts"] ?? 0) >= 1, "joins beyond the burst were limited and retried")
        #expect(values.reconnects >= 1)
        #expect(values.audioPackets >= 3 * 100)
        #expect(values.joinToReady.totalCount == 3)
        #expect(values.score.truePositives + values.score.falseNegatives > 0, "labels were expected")
        // A start while a phone is down (chaos) is refused and retried.
        let expected: Set = ["too_many_attempts", "connection_test_failed", "not_enough_ready_players"]
        #expect(Set(values.errors.keys).isSubset(of: expected),
                "no other errors: \(values.errors)")
        try await server.stop()
    }

    /// A 2 s loop of quiet noise with sharp clicks, and its labels.
    static func clickTrack() throws -> (AudioTrack, Labels) {
        let rate = 48000
        let times = [0.3, 0.8, 1.3, 1.7]
        var generator = SystemRandomNumberGenerator()
        var pcm = (0..<(2 * rate)).map { _ in Int16.random(in: -30...30, using: &generator) }
        for time in times {
            let start = Int(time * Double(rate))
            for n in 0..<480 {
                let decay = exp(-Double(n) / 60)
                pcm[start + n] = Int16(max(-32000, min(32000, Double(Int16.random(in: -20000...20000)) * decay)))
            }
        }
        let track = try AudioTrack.fromWAV(InputsTests.wav(pcm), bitrate: 32000)
        return (track, Labels(times.map { Labels.Label(time: $0, type: "bounce") }))
    }
}

/// pongd's hub and listener in this process, over a temporary data folder.
final class SimTestServer {
    let address: ServerAddress
    private let folder: String
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(address: ServerAddress, folder: String, group: ServiceGroup, task: Task<Void, any Error>) {
        self.address = address
        self.folder = folder
        self.group = group
        self.task = task
    }

    static func start(joinBurst: Double = 100, joinsPerSecond: Double = 100) async throws -> SimTestServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pong-sim-\(UUID().uuidString)").path
        let logger = Logger(label: "sim-test")
        var configuration = HubConfiguration(
            dataDirectory: folder, joinBurst: joinBurst, joinsPerSecond: joinsPerSecond,
            passwordHashing: .init(logRounds: 10, blockSize: 8, parallelism: 1))
        // Joins are limited per user and per session: one session's phones meet the session's limit.
        configuration.sessionJoinBurst = joinBurst
        configuration.sessionJoinsPerSecond = joinsPerSecond
        let hub = try SessionHub(configuration: configuration, logger: logger)
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), logger: logger, router: hub.router,
                                webSockets: hub)
        let group = ServiceGroup(services: [server], logger: logger)
        let task = Task { try await group.run() }
        let port = try await server.boundPort
        return SimTestServer(address: ServerAddress(host: "127.0.0.1", port: port), folder: folder, group: group,
                             task: task)
    }

    /// Stops the server and removes its data folder.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
        try? FileManager.default.removeItem(atPath: folder)
    }
}
