import Benchmark

/// SessionHub end to end: a real `PongServer` on 127.0.0.1 (port 0, temporary data folder), driven over loopback by
/// the small NIO client in this folder. The tool runs every benchmark in a process of its own, so each one starts
/// its own server in `setup` and stops it in `teardown`.
///
/// - Joins: `POST /sessions/{code}/join` per second, 8 in flight; peer: `GET /healthz` over the same client (the
///   HTTP floor). One iteration = one run of 400 requests; the figure is the custom metric `requests/s`.
/// - Lobby fan-out with 1, 2, 4 and 8 players in a session: one iteration = one lobby change; the figure is the
///   custom metric `last lobby (μs)`, trigger to the last socket's `lobby`. 1 player is the single-send floor.
let benchmarks: @Sendable () -> Void = {
    let runs = Benchmark.Configuration(
        metrics: [.wallClock, JoinBench.requestsPerSecond],
        timeUnits: .milliseconds,
        units: [JoinBench.requestsPerSecond: .count],
        warmupIterations: 2,
        maxDuration: .seconds(60),
        maxIterations: 12
    )
    let joins = Fixture<JoinBench>()

    Benchmark("Join (POST sessions-code-join), 8 in flight",
              configuration: runs,
              closure: { benchmark in try await joins.value().joinRun(benchmark) },
              setup: { try await joins.set(JoinBench.start()) },
              teardown: { await joins.take()?.stop() })

    Benchmark("Join peer (GET healthz), 8 in flight",
              configuration: runs,
              closure: { benchmark in try await joins.value().healthzRun(benchmark) },
              setup: { try await joins.set(JoinBench.start()) },
              teardown: { await joins.take()?.stop() })

    let rounds = Benchmark.Configuration(
        metrics: [.wallClock, FanOutBench.lastLobby],
        timeUnits: .microseconds,
        units: [FanOutBench.lastLobby: .count],
        warmupIterations: 20,
        maxDuration: .seconds(20),
        maxIterations: 400
    )
    let fanOut = Fixture<FanOutBench>()

    for players in [1, 2, 4, 8] {
        Benchmark("Lobby fan-out, \(players) player\(players == 1 ? "" : "s")",
                  configuration: rounds,
                  closure: { benchmark in try await fanOut.value().measureRound(benchmark) },
                  setup: { try await fanOut.set(FanOutBench.start(players: players)) },
                  teardown: { await fanOut.take()?.stop() })
    }
}

/// Holds the running fixture of the benchmark this process runs, between `setup` and `teardown`.
final class Fixture<Value: Sendable>: Sendable {
    private let slot = Locked<Value?>(nil)

    /// Stores the fixture `setup` made.
    func set(_ value: Value) {
        slot.withLock { $0 = value }
    }

    /// The fixture; throws if `setup` did not make one.
    func value() throws -> Value {
        guard let value = slot.withLock({ $0 }) else { throw BenchError("benchmark set-up did not run") }
        return value
    }

    /// Removes and returns the fixture, for `teardown`.
    func take() -> Value? {
        slot.withLock { slot in
            defer { slot = nil }
            return slot
        }
    }
}
