import NIOCore
import NIOPosix
import Synchronization

/// A TCP listener that accepts every connection and never answers (reads and drops what comes): an owner node that
/// hangs. It counts the connections open now, the most open at once, and all accepted; `opened(_:)` waits for calls
/// to reach it and `hangUp()` ends them, so a test steps through its calls without wall-clock guesses.
final class HangingServer: Sendable {
    /// Connections open now, the most open at once, all accepted.
    struct Counts: Sendable, Equatable {
        var open = 0
        var most = 0
        var accepted = 0
    }

    private let channel: any Channel
    private let tally: Tally

    private init(channel: any Channel, tally: Tally) {
        self.channel = channel
        self.tally = tally
    }

    /// Listens on an ephemeral port of 127.0.0.1. `postgresStartup`: answers a PostgreSQL client's start-up (login
    /// accepted, ready for a query) before it goes silent: a database server that hangs mid-query.
    static func start(postgresStartup: Bool = false) async throws -> HangingServer {
        let tally = Tally()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(Silent(tally: tally, postgresStartup: postgresStartup))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return HangingServer(channel: channel, tally: tally)
    }

    /// The port it listens on.
    var port: Int { channel.localAddress?.port ?? 0 }

    /// The counts now.
    var counts: Counts { tally.counts.withLock { $0 } }

    /// Waits (at most 5 s) until `count` connections are open; the counts then.
    @discardableResult
    func opened(_ count: Int) async throws -> Counts {
        try await waitUntil(within: .seconds(5)) { counts.open >= count }
        return counts
    }

    /// Waits (at most 2 s) until no connection is open; the counts then.
    func drained() async throws -> Counts {
        try await waitUntil(within: .seconds(2)) { counts.open == 0 }
        return counts
    }

    /// Closes every connection open now (the calls waiting on it fail at once).
    func hangUp() {
        for child in tally.children.withLock({ Array($0.values) }) { child.close(promise: nil) }
    }

    /// Stops listening.
    func stop() async throws {
        try await channel.close()
    }

    private final class Tally: Sendable {
        let counts = Mutex(Counts())
        let children = Mutex([ObjectIdentifier: any Channel]())
    }

    /// Counts the connection; reads and drops everything; never writes (but the PostgreSQL start-up's answer).
    private final class Silent: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let tally: Tally
        // Touched on the channel's event loop only.
        private var startupPending: Bool

        init(tally: Tally, postgresStartup: Bool) {
            self.tally = tally
            self.startupPending = postgresStartup
        }

        func channelActive(context: ChannelHandlerContext) {
            tally.counts.withLock { counts in
                counts.open += 1
                counts.accepted += 1
                counts.most = max(counts.most, counts.open)
            }
            tally.children.withLock { $0[ObjectIdentifier(context.channel)] = context.channel }
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            tally.children.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(context.channel)) }
            tally.counts.withLock { $0.open -= 1 }
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard startupPending else { return }
            startupPending = false
            // AuthenticationOk, BackendKeyData, ReadyForQuery (idle): the login is done, the next query never answered.
            var answer = context.channel.allocator.buffer(capacity: 32)
            answer.writeInteger(UInt8(ascii: "R")); answer.writeInteger(Int32(8)); answer.writeInteger(Int32(0))
            answer.writeInteger(UInt8(ascii: "K")); answer.writeInteger(Int32(12))
            answer.writeInteger(Int32(1)); answer.writeInteger(Int32(2))
            answer.writeInteger(UInt8(ascii: "Z")); answer.writeInteger(Int32(5)); answer.writeInteger(UInt8(ascii: "I"))
            context.writeAndFlush(NIOAny(answer), promise: nil)
        }
    }
}
