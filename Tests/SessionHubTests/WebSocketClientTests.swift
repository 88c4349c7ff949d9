import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
@testable import PongClient
import Testing
@testable import SessionHub

/// PongClient's `WebSocketClient` against a real server: the order of its events, exactly one `.closed`, and the
/// frames a server sends together with its 101 response (which the client's own upgrade hands to its frame decoder).
/// Part of the serialized "End to end" suite, as every test that starts a server.
extension EndToEndTests {
    @Test("a socket refused right behind its 101 (error, close 4001, FIN) opens, gets the error, closes 4001, once")
    func refusalWithTheUpgrade() async throws {
        let server = try await HubTestServer.start()
        let session = try await server.hostSession()
        let (code, token) = (session.code, session.token)
        // Another user's player path: the server's error and close go out right behind the 101, then it closes.
        // NIO's client upgrade lost those frames in most runs; the client's own keeps every byte behind the 101.
        var closed: [(events: [String], recorder: Recorder)] = []
        for _ in 0..<50 {
            let path = "/sessions/\(code)/player/someone-else?token=\(token)"
            let (client, recorder) = recordedClient(port: server.port, path: path)
            try await client.upgraded.get()
            closed.append((try await recorder.closed(), recorder))
        }
        try await afterASecondCloseCouldCome()
        for (events, recorder) in closed {
            let all = events + (await recorder.rest())
            #expect(all == ["opened", "error", "closed 4001"], "\(all)")
        }
        try await server.stop()
    }

    @Test("a message the server sends right behind its 101 (the dashboard's welcome) is the first event after opening")
    func welcomeWithTheUpgrade() async throws {
        let server = try await HubTestServer.start()
        let session = try await server.hostSession()
        let (code, hostToken) = (session.code, session.hostToken)
        for _ in 0..<20 {
            let path = "/sessions/\(code)/dashboard?token=\(hostToken)"
            let (client, recorder) = recordedClient(port: server.port, path: path)
            try await client.upgraded.get()
            let events = try await recorder.lines(through: { $0 == "text" })
            #expect(Array(events.prefix(2)) == ["opened", "text"], "\(events)")
            client.close()
            _ = try await recorder.closed()
        }
        try await server.stop()
    }

    @Test("an upgrade the server answers with plain HTTP fails `upgraded` and reports one close")
    func refusedUpgrade() async throws {
        let server = try await HubTestServer.start()
        let (client, recorder) = recordedClient(port: server.port, path: "/no-such-socket")
        await #expect(throws: WebSocketClientError.self) { try await client.upgraded.get() }
        #expect(try await recorder.closed() == ["closed -"])
        try await afterASecondCloseCouldCome()
        #expect(await recorder.rest() == [])
        try await server.stop()
    }

    @Test("a port nobody listens on fails `upgraded` and reports one close")
    func nobodyListening() async throws {
        // Bind and release a port so that nothing listens on it.
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(channel.localAddress?.port)
        try await channel.close()
        let (client, recorder) = recordedClient(port: port, path: "/")
        await #expect(throws: (any Error).self) { try await client.upgraded.get() }
        #expect(try await recorder.closed() == ["closed -"])
        try await afterASecondCloseCouldCome()
        #expect(await recorder.rest() == [])
    }

    @Test("sending and closing before the 101 send nothing and do not crash: the connection just ends, once")
    func closeBeforeTheUpgrade() async throws {
        let listener = try await SilentListener.start()
        let (client, recorder) = recordedClient(port: listener.port, path: "/")
        // TCP is up and the upgrade request went out; the 101 never comes.
        try await listener.requested.futureResult.get()
        #expect(!client.isWritable)
        let sent = client.eventLoop.makePromise(of: Void.self)
        client.send(text: #"{"type":"hello"}"#, promise: sent)
        await #expect(throws: ChannelError.self) { try await sent.futureResult.get() }
        client.close()
        #expect(try await recorder.closed() == ["closed -"])
        try await listener.closed.futureResult.get()
        await #expect(throws: WebSocketClientError.closedBeforeUpgrade) { try await client.upgraded.get() }
        try await afterASecondCloseCouldCome()
        #expect(await recorder.rest() == [])
        // The server got the upgrade request and nothing behind it.
        let received = String(decoding: listener.bytes.withLockedValue { $0 }, as: UTF8.self)
        #expect(received.hasPrefix("GET / HTTP/1.1\r\n") && received.hasSuffix("\r\n\r\n"), "\(received)")
        try await listener.stop()
    }

    @Test("a drop right after connect, before the socket may even exist, abandons the connect and reports one close")
    func dropWhileConnecting() async throws {
        let listener = try await SilentListener.start()
        let (client, recorder) = recordedClient(port: listener.port, path: "/")
        client.drop()
        #expect(try await recorder.closed() == ["closed -"])
        await #expect(throws: (any Error).self) { try await client.upgraded.get() }
        try await afterASecondCloseCouldCome()
        #expect(await recorder.rest() == [])
        try await listener.stop()
    }

    @Test("after the upgrade a bad message gets an error, and the client's own close ends in exactly one `.closed`")
    func echoAndClose() async throws {
        let server = try await HubTestServer.start()
        let session = try await server.hostSession()
        let (code, hostToken) = (session.code, session.hostToken)
        let path = "/sessions/\(code)/dashboard?token=\(hostToken)"
        let (client, recorder) = recordedClient(port: server.port, path: path)
        try await client.upgraded.get()
        // An unknown message type gets an `error` and the socket stays (PROTOCOL.md).
        try await client.write(text: #"{"type":"no-such-type"}"#)
        var events = try await recorder.lines(through: { $0 == "error" })
        client.close()
        events += try await recorder.closed()
        try await afterASecondCloseCouldCome()
        events += await recorder.rest()
        #expect(events.first == "opened")
        #expect(events.contains("error"))
        #expect(events.last?.hasPrefix("closed") == true)
        #expect(events.filter { $0.hasPrefix("closed") }.count == 1)
        try await server.stop()
    }
}

/// A TCP listener that takes connections, records what they send and never answers: a server that has not sent
/// its 101 yet.
private final class SilentListener: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    /// Completes when the first bytes arrive (the upgrade request).
    let requested: EventLoopPromise<Void>
    /// Completes when a connection ends.
    let closed: EventLoopPromise<Void>
    /// Every byte received.
    let bytes = NIOLockedValueBox<[UInt8]>([])
    private let channel = NIOLockedValueBox<(any Channel)?>(nil)

    private init(loop: any EventLoop) {
        requested = loop.makePromise()
        closed = loop.makePromise()
    }

    deinit {
        // NIO traps on a promise left incomplete; these complete only if a connection came (and already did).
        requested.fail(ChannelError.ioOnClosedChannel)
        closed.fail(ChannelError.ioOnClosedChannel)
    }

    /// Listens on an ephemeral port of 127.0.0.1.
    static func start() async throws -> SilentListener {
        let group = MultiThreadedEventLoopGroup.singleton
        let listener = SilentListener(loop: group.next())
        let channel = try await ServerBootstrap(group: group)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture { try child.pipeline.syncOperations.addHandler(listener) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        listener.channel.withLockedValue { $0 = channel }
        return listener
    }

    /// The port it listens on.
    var port: Int { channel.withLockedValue { $0?.localAddress?.port } ?? 0 }

    /// Stops listening.
    func stop() async throws {
        try await channel.withLockedValue { $0 }?.close()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        bytes.withLockedValue { $0 += buffer.readableBytesView }
        requested.succeed()
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed.succeed()
        context.fireChannelInactive()
    }
}
