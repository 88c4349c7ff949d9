import NIOConcurrencyHelpers
import NIOCore
import PongWire

/// The run's bookkeeping per session: starts a host's game when all its phones are ready; once every phone has
/// streamed its `--duration` (phones keep streaming, and so stay ready, until then), stops their audio, waits a
/// grace for late `bounce` events and ends the session; completes `done` when every session is over. Phones call it from their loops; the state is behind a lock and decisions are acted on outside it.
final class RunCoordinator: PhoneEvents, Sendable {
    /// One session's counts.
    struct SessionCounts: Sendable {
        /// Phones of the session.
        var phones: Int
        /// Phones the lobby showed ready.
        var ready = 0
        /// Phones that failed before they were ready.
        var failedEarly = 0
        /// Phones done streaming (stopped, or failed).
        var doneStreaming = 0
        /// Phones whose journey is over.
        var finished = 0
        var startRequested = false
        var endRequested = false
        /// The host's end call came back (answered or given up): its phones may hear `sessionEnded` before it does.
        var endAnswered = false
        var over = false
    }

    /// What to do after a count changed.
    enum Decision: Equatable {
        case none, start, end, over
    }

    /// How often a host tries to start its game (a second apart) before giving up.
    static let startAttempts = 10

    private let hosts: [HostSession]
    private let servers: [ServerAddress]
    private let loop: any EventLoop
    private let stats: SimStats
    private let graceSeconds: Double
    private let counts: NIOLockedValueBox<[SessionCounts]>
    private let phones: NIOLockedValueBox<[[PhoneDriver]]>
    /// Completes when every session is over.
    let done: EventLoopPromise<Void>

    init(hosts: [HostSession], phonesPerSession: Int, servers: [ServerAddress], loop: any EventLoop, stats: SimStats,
         graceSeconds: Double = 1.5) {
        self.hosts = hosts
        self.servers = servers
        self.loop = loop
        self.stats = stats
        self.graceSeconds = graceSeconds
        self.counts = NIOLockedValueBox(hosts.map { _ in SessionCounts(phones: phonesPerSession) })
        self.done = loop.makePromise(of: Void.self)
        self.phones = NIOLockedValueBox(hosts.map { _ in [] })
    }

    /// Registers a phone of `session` (before it starts), so the end can stop its audio.
    func register(_ phone: PhoneDriver, session: Int) {
        phones.withLockedValue { $0[session].append(phone) }
    }

    func phoneReady(session: Int) {
        act(session) { $0.ready += 1 }
    }

    func phoneStreamedEnough(session: Int) {
        act(session) { $0.doneStreaming += 1 }
    }

    func phoneFinished(session: Int, error: SimError?, wasReady: Bool) {
        act(session) { counts in
            counts.finished += 1
            if error != nil && !wasReady { counts.failedEarly += 1 }
        }
    }

    func phoneTested(session: Int, result: ConnectionTestResult) {}

    /// The next step for a session: start when every phone is ready or failed and at least 2 are ready; end when
    /// every phone is done streaming; over when every phone finished after the end and the end call came back.
    static func decide(_ counts: SessionCounts) -> Decision {
        if counts.endRequested {
            return !counts.over && counts.endAnswered && counts.finished >= counts.phones ? .over : .none
        }
        if counts.doneStreaming >= counts.phones { return .end }
        if !counts.startRequested && counts.ready >= 2 && counts.ready + counts.failedEarly >= counts.phones {
            return .start
        }
        return .none
    }

    private func act(_ session: Int, _ change: @Sendable (inout SessionCounts) -> Void) {
        let decision = counts.withLockedValue { all -> Decision in
            change(&all[session])
            let decision = Self.decide(all[session])
            switch decision {
            case .start: all[session].startRequested = true
            case .end: all[session].endRequested = true
            case .over: all[session].over = true
            case .none: break
            }
            return decision
        }
        perform(decision, session: session)
    }

    private func perform(_ decision: Decision, session: Int) {
        let host = hosts[session]
        switch decision {
        case .none:
            return
        case .start:
            let (servers, loop, stats) = (servers, loop, stats)
            Task {
                // A phone of the session may be down (chaos) at that moment: try again each second, for a while
                // (with several nodes, each attempt on the next one: the host's node may be gone).
                for attempt in 0..<Self.startAttempts {
                    let server = Self.server(servers, session: session, attempt: attempt)
                    if await host.control("start", server: server, on: loop, stats: stats) {
                        stats.update { $0.sessionsStarted += 1 }
                        return
                    }
                    try? await Task.sleep(for: .seconds(1))
                    if self.counts.withLockedValue({ $0[session].endRequested }) { return }
                }
            }
        case .end:
            let (servers, loop, stats, grace) = (servers, loop, stats, graceSeconds)
            for phone in phones.withLockedValue({ $0[session] }) { phone.loop.execute { phone.stopStreaming() } }
            Task {
                try? await Task.sleep(for: .seconds(grace))
                // The server may be restarting: try again each second, for a while.
                for attempt in 0..<Self.startAttempts {
                    let server = Self.server(servers, session: session, attempt: attempt)
                    if await host.control("end", server: server, on: loop, stats: stats) { break }
                    try? await Task.sleep(for: .seconds(1))
                }
                self.act(session) { $0.endAnswered = true }
                // Phones whose socket is down never hear sessionEnded: give them a moment, then call it over.
                try? await Task.sleep(for: .seconds(3))
                self.markOver(session)
            }
        case .over:
            checkAllOver()
        }
    }

    /// The node a host's attempt `attempt` (from 0) calls: its own (`ServerSpread.host`), then the next ones in turn.
    static func server(_ servers: [ServerAddress], session: Int, attempt: Int) -> ServerAddress {
        servers[(ServerSpread.host(session: session, servers: servers.count) + attempt) % servers.count]
    }

    private func markOver(_ session: Int) {
        counts.withLockedValue { $0[session].over = true }
        checkAllOver()
    }

    private func checkAllOver() {
        if counts.withLockedValue({ $0.allSatisfy(\.over) }) { done.succeed() }
    }

    /// The counts (progress line).
    var snapshot: [SessionCounts] { counts.withLockedValue { $0 } }
}
