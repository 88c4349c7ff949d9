import NIOCore
import NIOPosix
import Foundation
import PongWire

/// Runs a load run: creates the sessions, starts the phones over the ramp, prints progress, waits for the end,
/// merges the phones' own counts, scores bounces and returns the measurements.
struct SimRunner {
    /// The run's parameters.
    struct Plan: Sendable {
        /// The pongd nodes (`--server`, one or more); calls are spread over them (`ServerSpread`).
        var servers: [ServerAddress]
        var sessions: Int
        var playersPerSession: Int
        var track: AudioTrack
        var labels: Labels?
        var ramp: Double
        var settings: PhoneSettings
        var signUpEvery = 10
        var progressEvery = 5.0
        var runTag: String
        /// Where to write every own bounce as CSV (`phone,what,time,end`: a bounce's stream time and latency in ms, or a sent window's start and end), or nil.
        var dumpBounces: String?
        /// With several nodes: seconds a phone may be off its socket, asking the nodes in turn, before it fails.
        var failoverLimit = 30.0
    }

    let plan: Plan
    /// The run's measurements, readable while it runs (tests wait on them).
    var stats = SimStats()

    /// Runs to the end; returns the stats (scores included).
    func run() async throws(SimError) -> SimStats.Values {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        do {
            let values = try await run(group: group)
            try? await group.shutdownGracefully()
            return values
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private func run(group: MultiThreadedEventLoopGroup) async throws(SimError) -> SimStats.Values {
        let stats = stats
        stats.update { $0.servers = plan.servers.map(\.node) }
        let hosts = try await createHosts(group: group, stats: stats)
        Console.error("created \(hosts.count) sessions: \(hosts.map(\.displayCode).joined(separator: " "))")
        let coordinator = RunCoordinator(hosts: hosts, phonesPerSession: plan.playersPerSession, servers: plan.servers,
                                         loop: group.next(), stats: stats)
        let audio = StreamStartRequest.Audio(codec: .opus, sampleRate: AudioTrack.sampleRate,
                                             channels: plan.track.channels, preSkip: plan.track.preSkip)
        let total = plan.sessions * plan.playersPerSession
        let t0 = PhoneDriver.now().adding(seconds: 0.1)
        var phones: [PhoneDriver] = []
        for index in 0..<total {
            let session = index % plan.sessions  // sessions fill side by side during the ramp
            var journey = PhoneJourney(
                identity: PhoneIdentity.make(index: index, runTag: plan.runTag, signUpEvery: plan.signUpEvery),
                typedCode: hosts[session].typedCode, audio: audio, mode: .play, servers: plan.servers,
                server: ServerSpread.phone(session: session, seat: index / plan.sessions, servers: plan.servers.count))
            journey.failoverLimit = plan.failoverLimit
            let phone = PhoneDriver(loop: group.next(), session: session, track: plan.track,
                                    stats: stats, settings: plan.settings, journey: journey, events: coordinator)
            coordinator.register(phone, session: session)
            let slot = t0.adding(seconds: total > 1 ? plan.ramp * Double(index) / Double(total) : 0)
            _ = phone.loop.scheduleTask(deadline: .uptimeNanoseconds(slot.nanoseconds)) { phone.start(scheduled: slot) }
            phones.append(phone)
        }
        let started = PhoneDriver.now()
        let progress = Task { [phones] in
            await Self.progress(stats: stats, phones: phones, every: plan.progressEvery, since: started)
        }
        let limit = plan.ramp + plan.settings.readyTimeout + plan.settings.duration + 60
        let timeout = group.next().scheduleTask(in: .nanoseconds(Int64(limit * 1e9))) {
            Console.error("run did not finish within \(Int(limit)) s; reporting what was measured")
            coordinator.done.succeed()
        }
        try? await coordinator.done.futureResult.get()
        timeout.cancel()
        progress.cancel()
        for phone in phones {
            if let counters = try? await phone.loop.submit({ phone.counters }).get() {
                stats.update { $0.merge(counters) }
            }
            if let end = try? await phone.loop.submit({ (phone.journey.welcomedNode, phone.journey.isLost) }).get() {
                stats.phoneEnded(node: end.0, lost: end.1)
            }
        }
        if let labels = plan.labels {
            let scorer = BounceScorer(labels: labels, loopSeconds: plan.track.loopSeconds)
            for phone in phones {
                let score = try? await phone.loop.submit { phone.score(with: scorer) }.get()
                if let score { stats.update { $0.score = $0.score + score } }
            }
        }
        if let path = plan.dumpBounces { await Self.dump(phones, to: path) }
        for phone in phones { phone.loop.execute { phone.socket?.close() } }
        return stats.snapshot
    }

    private func createHosts(group: MultiThreadedEventLoopGroup, stats: SimStats) async throws(SimError)
        -> [HostSession]
    {
        var hosts: [HostSession] = []
        for index in 0..<plan.sessions {
            // With several nodes, a host whose node fails it tries the next ones (a node may be down at the start).
            var attempt = 0
            while true {
                let server = RunCoordinator.server(plan.servers, session: index, attempt: attempt)
                do {
                    hosts.append(try await HostSession.create(index: index, server: server, on: group.next(),
                                                              stats: stats))
                    break
                } catch {
                    attempt += 1
                    if attempt >= plan.servers.count { throw error }
                    Console.error("host \(index): \(error); trying the next node")
                }
            }
        }
        return hosts
    }

    /// Writes each phone's own bounces and sent windows as CSV rows (for looking into a score).
    static func dump(_ phones: [PhoneDriver], to path: String) async {
        var text = "phone,what,time,end,kind\n"
        for (index, phone) in phones.enumerated() {
            let rows = try? await phone.loop.submit {
                zip(phone.detections, phone.latencies).map { "\(index),bounce,\($0.time),\($1),\($0.kind)" }
                    + phone.windows.windows.map { "\(index),window,\($0.start),\($0.end)" }
            }.get()
            text += (rows ?? []).joined(separator: "\n") + "\n"
        }
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }

    /// A progress line on stderr every `every` seconds (packet and bounce counts asked of each phone on its loop).
    static func progress(stats: SimStats, phones: [PhoneDriver], every: Double, since start: MonoTime) async {
        var lastPackets = 0
        var lastTime = start
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(every))
            if Task.isCancelled { return }
            var (packets, bounces) = (0, 0)
            for phone in phones {
                let counts = try? await phone.loop.submit {
                    (packets: phone.counters.audioPackets, bounces: phone.counters.bounces)
                }.get()
                packets += counts?.packets ?? 0
                bounces += counts?.bounces ?? 0
            }
            let values = stats.snapshot
            let now = PhoneDriver.now()
            let rate = Double(packets - lastPackets) / max(0.001, now.seconds(since: lastTime))
            lastPackets = packets
            lastTime = now
            Console.error("[\(Int(now.seconds(since: start).rounded())) s] players \(values.players) "
                + "readySent \(values.readySent) ready \(values.ready) failed \(values.failed) "
                + "started \(values.sessionsStarted) audio \(Int(rate)) pkt/s bounces \(bounces) "
                + "reconnects \(values.reconnects) errors \(values.errorTotal)"
                + (values.moves + values.failovers > 0 ? " moved4101 \(values.moves) failovers \(values.failovers)" : "")
                + (values.restartCloses > 0 ? " closes4100 \(values.restartCloses) resumed \(values.resumedAfterRestart)" : ""))
        }
    }
}
