import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A WebSocket client over NIO (the phone simulator's, the end-to-end tests' and the Hub benchmark's): TCP connect,
/// HTTP upgrade, masked text and binary frames out (binary with or without flush), text frames in, writability, close.
///
/// Events reach `onEvent` on the client's event loop, in order: `.opened` (or nothing), frames and `.writable`, then
/// exactly one `.closed`. The upgrade is the client's own (`Upgrader`, `Handshake`): every byte that arrives behind
/// the 101 response goes to the frame decoder in the same read, so frames a server sends with its 101 are delivered
/// even when it closes right behind them (a socket refused at once: `error`, then `.closed(code: 4001)`).
/// Sending is safe from any thread. Until the upgrade completes nothing is sent (the frame is dropped, its promise
/// fails) and `close()` just drops the connection.
public final class WebSocketClient: Sendable {
    /// What the client reports to its owner.
    public enum Event: Sendable {
        /// The upgrade completed; the socket can send.
        case opened
        /// A text frame arrived.
        case text(String)
        /// The outbound buffer drained below its low watermark.
        case writable
        /// The socket ended: the close frame's code, or nil when it dropped or never opened. Always the last event.
        case closed(code: UInt16?)
    }

    /// The largest frame accepted from the server.
    static let maxFrameSize = 1 << 20

    private struct State {
        /// The socket, from its creation on (before TCP connects).
        var channel: (any Channel)?
        /// Whether the upgrade completed: frames may be written only from then on.
        var open = false
        /// Whether `drop()` was called: a socket created after it closes at once.
        var dropped = false
        var reportedClose = false
        var closeReason: String?
    }

    /// The loop the socket lives on; `onEvent` is called there.
    public let eventLoop: any EventLoop
    /// Completes when the upgrade did; fails (and the socket closes) when the connection or the upgrade failed.
    public var upgraded: EventLoopFuture<Void> { upgradePromise.futureResult }

    private let upgradePromise: EventLoopPromise<Void>
    private let onEvent: @Sendable (WebSocketClient, Event) -> Void
    private let state = NIOLockedValueBox(State())

    private init(eventLoop: any EventLoop, onEvent: @escaping @Sendable (WebSocketClient, Event) -> Void) {
        self.eventLoop = eventLoop
        self.upgradePromise = eventLoop.makePromise(of: Void.self)
        self.onEvent = onEvent
    }

    /// Starts connecting as `configuration` says from `loop`; `onEvent` hears `.opened` or `.closed(code: nil)`
    /// first. Await `upgraded` to wait for the upgrade instead.
    public static func connect(_ configuration: Configuration, on loop: any EventLoop,
                               onEvent: @escaping @Sendable (WebSocketClient, Event) -> Void) -> WebSocketClient {
        let client = WebSocketClient(eventLoop: loop, onEvent: onEvent)
        client.upgraded.whenComplete { result in
            switch result {
            case .success: client.report(.opened)
            case .failure: client.state.withLockedValue { $0.channel }?.close(promise: nil)
            }
        }
        client.bootstrap(configuration).connect(host: configuration.host, port: configuration.port)
            .whenComplete { result in
                switch result {
                case .success(let channel):
                    // Every frame that arrived was handed on before the channel closed.
                    channel.closeFuture.whenComplete { _ in client.reportClose(code: nil) }
                case .failure(let error):
                    client.upgradePromise.fail(error)
                    client.reportClose(code: nil)
                }
            }
        return client
    }

    private func bootstrap(_ configuration: Configuration) -> ClientBootstrap {
        var bootstrap = ClientBootstrap(group: eventLoop)
        if configuration.noDelay { bootstrap = bootstrap.channelOption(.socketOption(.tcp_nodelay), value: 1) }
        if let marks = configuration.writeBufferWaterMark {
            bootstrap = bootstrap.channelOption(.writeBufferWaterMark, value: marks)
        }
        if let size = configuration.sendBufferSize {
            bootstrap = bootstrap.channelOption(.socketOption(.so_sndbuf), value: SocketOptionValue(size))
        }
        if let timeout = configuration.connectTimeout { bootstrap = bootstrap.connectTimeout(timeout) }
        if let source = configuration.sourceAddress, let local = try? SocketAddress(ipAddress: source, port: 0) {
            bootstrap = bootstrap.bind(to: local)
        }
        return bootstrap.channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                let dropped = self.state.withLockedValue { state in
                    state.channel = channel
                    return state.dropped
                }
                if dropped { throw ChannelError.ioOnClosedChannel }
                let upgrader = Upgrader(client: self, configuration: configuration, key: Handshake.randomKey())
                try channel.pipeline.syncOperations.addHandler(upgrader)
            }
        }
    }

    /// The reason of the server's close frame, once `.closed` reported one ("" when it had none).
    public internal(set) var closeReason: String? {
        get { state.withLockedValue { $0.closeReason } }
        set { state.withLockedValue { $0.closeReason = newValue } }
    }

    /// Marks the socket open and completes `upgraded` (which reports `.opened`); on the event loop.
    func upgradeSucceeded() {
        state.withLockedValue { $0.open = true }
        upgradePromise.succeed()
    }

    /// Fails `upgraded` (which closes the socket) unless it completed already.
    func upgradeFailed(_ error: any Error) {
        upgradePromise.fail(error)
    }

    func report(_ event: Event) {
        guard !state.withLockedValue({ $0.reportedClose }) else { return }
        onEvent(self, event)
    }

    func reportClose(code: UInt16?) {
        let first = state.withLockedValue { state in
            defer { state.reportedClose = true }
            return !state.reportedClose
        }
        if first { onEvent(self, .closed(code: code)) }
    }

    /// The channel once the upgrade completed and while it is connected. Frames may be written only then: before the
    /// 101 the frame encoder is not in the pipeline yet, and a frame reaching the socket traps.
    var activeChannel: (any Channel)? {
        guard let channel = state.withLockedValue({ $0.open ? $0.channel : nil }), channel.isActive else { return nil }
        return channel
    }

    /// The socket in whatever state it is (nil before it exists); a socket created after this call closes at once.
    func channelToDrop() -> (any Channel)? {
        state.withLockedValue { state in
            state.dropped = true
            return state.channel
        }
    }
}
