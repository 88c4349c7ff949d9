import ArgumentParser

import Foundation

/// `pong-player-sim [run] --server URL [--server URL …] --sessions S --players-per-session P --audio FILE --labels CSV --duration S`.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Create S sessions, walk S×P phones to ready, stream audio, score bounces."
    )

    @Option(help: ArgumentHelp(
        "pongd base URL (default http://127.0.0.1:8080); more than once for several nodes of one cluster.",
        valueName: "url"))
    var server: [String] = []

    @Option(help: "Sessions to create (one host each).")
    var sessions = 1

    @Option(name: .customLong("players-per-session"), help: "Phones per session (a session seats at most 8).")
    var playersPerSession = 2

    @Option(help: "Audio to stream: a 48 kHz .wav (encoded to Opus) or an Ogg .opus file (sent as it is).")
    var audio: String

    @Option(help: "Labels CSV of the audio (header with time_s or time; type). Without it F1 is not scored.")
    var labels: String?

    @Option(help: "Seconds each phone streams at least, from its first packet (a session's phones stream until the last of them has).")
    var duration: Double = 20

    @Option(name: .customLong("ready-timeout"), help: "Seconds from a phone's start within which it must be ready.")
    var readyTimeout: Double = 300

    @Option(help: "Seconds over which the phones start (evenly spaced).")
    var ramp: Double = 0

    @Option(name: .customLong("chaos-drop-rate"), help: "Abrupt socket drops per ready phone per minute.")
    var chaosDropRate: Double = 0

    @Option(name: .customLong("vanish-count"),
            help: "Phones 0..<N vanish once (stop reading and answering pings, no FIN) after being ready.")
    var vanishCount = 0

    @Option(name: .customLong("vanish-after"), help: "Seconds after sending ready at which a phone vanishes.")
    var vanishAfter: Double = 10

    @Option(name: .customLong("vanish-for"), help: "Seconds a vanished phone stays silent before it resumes.")
    var vanishFor: Double = 20

    @Option(help: "Opus bitrate when encoding a WAV, bits/s (24000–32000).")
    var bitrate = 24000

    @Option(name: .customLong("filler-mbps"), help: "Cap of the connection-test filler upload, Mbit/s (0: none).")
    var fillerMbps: Double = 10

    @Option(name: .customLong("signup-every"), help: "Every N-th phone signs up; the others are guests (0: none).")
    var signupEvery = 10

    @Option(name: .customLong("source-addresses"),
            help: "Connect phones from this many loopback addresses (127.0.0.2…) to spread a loopback server's per-address connection cap.")
    var sourceAddresses = 1

    @Option(name: .customLong("failover-timeout"),
            help: "With several --server nodes: seconds a phone may be off its socket, asking the nodes in turn, before it fails.")
    var failoverTimeout: Double = 30

    @Option(name: .customLong("progress-every"), help: "Seconds between progress lines on stderr.")
    var progressEvery: Double = 5

    @Option(name: .customLong("dump-bounces"), help: "Write every phone's own bounces and sent windows to this CSV.")
    var dumpBounces: String?

    @Flag(help: "Print the summary as one JSON object on the last line of stdout.")
    var json = false

    func validate() throws {
        guard sessions >= 1, playersPerSession >= 1 else { throw ValidationError("need at least 1 session and 1 player") }
        guard duration > 0, ramp >= 0, chaosDropRate >= 0, fillerMbps >= 0 else {
            throw ValidationError("--duration must be positive; --ramp, --chaos-drop-rate, --filler-mbps not negative")
        }
        guard vanishCount >= 0, vanishAfter >= 0, vanishFor > 0 else {
            throw ValidationError("--vanish-count and --vanish-after must not be negative, --vanish-for positive")
        }
        guard (1...250).contains(sourceAddresses) else { throw ValidationError("--source-addresses must be 1…250") }
        guard (6000...510_000).contains(bitrate) else { throw ValidationError("--bitrate out of range") }
        guard failoverTimeout > 0 else { throw ValidationError("--failover-timeout must be positive") }
    }

    func run() async throws {
        do {
            let addresses = try (server.isEmpty ? ["http://127.0.0.1:8080"] : server).map {
                url throws(SimError) in try ServerAddress(parsing: url)
            }
            let track = try AudioTrack.load(path: audio, bitrate: bitrate)
            let labelSet = try labels.map { path throws(SimError) in
                try Labels(csv: String(decoding: try readFile(path), as: UTF8.self))
            }
            var settings = PhoneSettings(duration: duration)
            settings.chaosDropsPerMinute = chaosDropRate
            settings.readyTimeout = readyTimeout
            settings.sourceAddresses = sourceAddresses
            settings.vanishCount = vanishCount
            settings.vanishAfter = vanishAfter
            settings.vanishFor = vanishFor
            if sourceAddresses > 1 && !addresses.allSatisfy({ $0.host.hasPrefix("127.") || $0.host == "localhost" }) {
                throw SimError.badArgument("--source-addresses needs loopback --server nodes (127.x or localhost)")
            }
            settings.fillerBytesPerSecond = fillerMbps * 1_000_000 / 8
            let plan = SimRunner.Plan(
                servers: addresses, sessions: sessions, playersPerSession: playersPerSession, track: track,
                labels: labelSet, ramp: ramp, settings: settings, signUpEvery: signupEvery,
                progressEvery: progressEvery, runTag: Self.runTag(), dumpBounces: dumpBounces,
                failoverLimit: failoverTimeout)
            Console.error("audio: \(track.packets.count) packets, loop \(track.loopSeconds) s, preSkip "
                + "\(track.preSkip), \(track.channels) ch; \(sessions)×\(playersPerSession) phones")
            let started = PhoneDriver.now()
            let values = try await SimRunner(plan: plan).run()
            Console.out(Report.table(values, wallSeconds: PhoneDriver.now().seconds(since: started)))
            if json { Console.out(Report(values).jsonLine) }
        } catch {
            Console.error("pong-player-sim: \(error)")
            throw ExitCode(1)
        }
    }

    /// A short tag making signup emails unique per run.
    static func runTag() -> String {
        String(UInt64(Date().timeIntervalSince1970 * 1000) % 1_000_000_000, radix: 36)
    }
}
