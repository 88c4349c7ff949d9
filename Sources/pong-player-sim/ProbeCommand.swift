import ArgumentParser
import NIOCore
import NIOPosix
import PongWire

/// `pong-player-sim probe --server URL [--json]`: one guest phone runs the connection test; the server's
/// `connectionTest` result is the last stdout line (exit 0), or a one-line error on stderr (exit 1).
struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Create a session, join one phone, run the connection test, print its result JSON."
    )

    @Option(help: "pongd base URL, e.g. http://127.0.0.1:8080.")
    var server = "http://127.0.0.1:8080"

    @Option(name: .customLong("filler-mbps"), help: "Cap of the filler upload, Mbit/s (0: as fast as the socket drains).")
    var fillerMbps: Double = 100

    @Option(help: "Seconds to wait for the result.")
    var timeout: Double = 30

    @Flag(help: "Print only the result JSON on stdout.")
    var json = false

    func run() async throws {
        do {
            let result = try await Self.probe(server: try ServerAddress(parsing: server),
                                              fillerBytesPerSecond: fillerMbps * 1_000_000 / 8, timeout: timeout)
            if !json {
                Console.out("connection test: \(result.uploadMbps) Mbps up, rtt \(result.rttMs.median) ms, "
                    + "under load \(result.rttUnderLoadMs.median) ms, grade \(result.grade.rawValue)")
            }
            Console.out(try MessageCodec.encodeJSON(result))
        } catch {
            Console.error("pong-player-sim probe: \(error)")
            throw ExitCode(1)
        }
    }

    /// Creates a session as a guest host, joins one guest phone, runs its connection test, ends the session and
    /// returns the server's result.
    static func probe(server: ServerAddress, fillerBytesPerSecond: Double, timeout: Double) async throws
        -> ConnectionTestResult
    {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let stats = SimStats()
        do {
            let host = try await HostSession.create(index: 0, server: server, on: loop, stats: stats)
            let waiter = ProbeWaiter(loop: loop)
            var settings = PhoneSettings(duration: 1)
            settings.fillerBytesPerSecond = fillerBytesPerSecond
            let journey = PhoneJourney(identity: PhoneIdentity.make(index: 0, runTag: "probe", signUpEvery: 0),
                                       typedCode: host.typedCode, audio: nil, mode: .probeOnly, servers: [server])
            let phone = PhoneDriver(loop: loop, session: 0, track: nil, stats: stats,
                                    settings: settings, journey: journey, events: waiter)
            phone.start(scheduled: PhoneDriver.now())
            let deadline = loop.scheduleTask(in: .nanoseconds(Int64(timeout * 1e9))) {
                waiter.result.fail(SimError.timeout("no connectionTest result within \(Int(timeout)) s"))
            }
            let outcome: Result<ConnectionTestResult, any Error>
            do {
                outcome = .success(try await waiter.result.futureResult.get())
            } catch {
                outcome = .failure(error)
            }
            deadline.cancel()
            loop.execute { phone.socket?.close() }
            _ = await host.control("end", server: server, on: loop, stats: stats)
            try? await group.shutdownGracefully()
            return try outcome.get()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }
}

/// Completes `result` with the probe phone's test result or its failure.
final class ProbeWaiter: PhoneEvents, Sendable {
    /// The test result.
    let result: EventLoopPromise<ConnectionTestResult>

    init(loop: any EventLoop) { result = loop.makePromise() }

    func phoneReady(session: Int) {}
    func phoneStreamedEnough(session: Int) {}
    func phoneFinished(session: Int, error: SimError?, wasReady: Bool) {
        result.fail(error ?? SimError.connectionTest("the phone finished without a result"))
    }
    func phoneTested(session: Int, result: ConnectionTestResult) { self.result.succeed(result) }
}
