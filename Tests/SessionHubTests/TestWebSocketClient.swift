import NIOCore
import NIOPosix
import PongClient

/// PongClient's `WebSocketClient` for end-to-end tests: connect, send text or binary, await messages and the close.
/// Use it from one task.
final class TestWebSocketClient {
    /// What arrived, in order.
    enum Event: Sendable, Equatable {
        case text(String)
        case closed(code: UInt16?)
    }

    private let client: WebSocketClient
    private var iterator: AsyncStream<Event>.AsyncIterator

    private init(client: WebSocketClient, events: AsyncStream<Event>) {
        self.client = client
        self.iterator = events.makeAsyncIterator()
    }

    /// Connects to `path` (with its query) on 127.0.0.1:`port` and completes the upgrade.
    static func connect(port: Int, path: String) async throws -> TestWebSocketClient {
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        let client = WebSocketClient.connect(.init(host: "127.0.0.1", port: port, path: path),
                                             on: MultiThreadedEventLoopGroup.singleton.next()) { _, event in
            switch event {
            case .text(let text):
                continuation.yield(.text(text))
            case .closed(let code):
                continuation.yield(.closed(code: code))
                continuation.finish()
            case .opened, .writable:
                break
            }
        }
        try await client.upgraded.get()
        return TestWebSocketClient(client: client, events: stream)
    }

    /// Sends a text frame (masked, as clients must).
    func send(_ text: String) async throws {
        try await client.write(text: text)
    }

    /// Sends a binary frame.
    func send(binary bytes: [UInt8]) async throws {
        try await sender.send(binary: bytes)
    }

    /// A handle that can send from another task while this client reads (e.g. probe filler during a test).
    var sender: Sender { Sender(client: client) }

    /// Sends binary frames; Sendable.
    struct Sender: Sendable {
        let client: WebSocketClient

        func send(binary bytes: [UInt8]) async throws {
            try await client.write(binary: ByteBuffer(bytes: bytes))
        }
    }

    /// The next event, or nil when the stream ended.
    func next() async -> Event? {
        await iterator.next()
    }

    /// The next text message whose JSON `type` is `type`, skipping others; nil if the socket closes first.
    func next(type: String) async -> String? {
        await next { $0.contains(#""type":"\#(type)""#) }
    }

    /// The next text message for which `matches` holds; nil if the socket closes first.
    func next(where matches: (String) -> Bool) async -> String? {
        while let event = await next() {
            if case .text(let text) = event, matches(text) { return text }
            if case .closed = event { return nil }
        }
        return nil
    }

    /// Waits for the close and returns its code (nil when the socket ended without a close frame).
    func closeCode() async -> UInt16? {
        while let event = await next() {
            if case .closed(let code?) = event { return code }
        }
        return nil
    }

    /// Drops the TCP connection without a close frame (a phone losing its network).
    func drop() async {
        await client.dropAndWait()
    }
}
