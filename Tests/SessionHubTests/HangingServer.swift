import NIOCore
import NIOPosix
import Synchronization

/// A TCP listener that accepts every connection and never answers (reads and drops what comes): an owner node that
/// hangs. It counts the connections open now, the most open at once, and all accepted.
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

    /// Listens on an ephemeral port of 127.0.0.1.
    static func start() async throws -> HangingServer {
        let tally = Tally()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(Silent(tally: tally))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return HangingServer(channel: channel, tally: tally)
    }

    /// The port it listens on.
    var port: Int { channel.localAddress?.port ?? 0 }

    /// The counts now.
    var counts: Counts { tally.counts.withLock { $0 } }

    /// Stops listening.
    func stop() async throws {
        try await channel.close()
    }

    private final class Tally: Sendable {
        let counts = Mutex(Counts())
    }

    /// Counts the connection; reads and drops everything; never writes.
    private final class Silent: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let tally: Tally

        init(tally: Tally) { self.tally = tally }

        func channelActive(context: ChannelHandlerContext) {
            tally.counts.withLock { counts in
                counts.open += 1
                counts.accepted += 1
                counts.most = max(counts.most, counts.open)
            }
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            tally.counts.withLock { $0.open -= 1 }
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
    }
}
