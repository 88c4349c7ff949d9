import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import PongClient
import PongWire
import Synchronization
@testable import pong_player_sim

/// A stand-in for a pongd node that does not own the session, for the simulator's side of 4101: HTTP requests are
/// forwarded to the owner; a join's answer names a socket on this node, as an absolute URL; a socket opened here is
/// closed at once with 4101 and the owner's URL for it as the reason, as a non-owner node does.
final class MovingNode: Sendable {
    /// What the node's connections share: its port (known once bound) and the count of 4101s sent.
    final class Shared: Sendable {
        let port = Mutex(0)
        let moves = Mutex(0)
    }

    /// The port it listens on (loopback).
    let port: Int
    private let shared: Shared
    private let channel: any Channel
    private let group: MultiThreadedEventLoopGroup

    private init(port: Int, shared: Shared, channel: any Channel, group: MultiThreadedEventLoopGroup) {
        self.port = port
        self.shared = shared
        self.channel = channel
        self.group = group
    }

    /// The node's address.
    var address: ServerAddress { ServerAddress(host: "127.0.0.1", port: port) }

    /// Sockets it closed with 4101.
    var moves: Int { shared.moves.withLock { $0 } }

    /// Listens on a free loopback port, forwarding to `owner`.
    static func start(owner: ServerAddress) async throws -> MovingNode {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let shared = Shared()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let forward = ForwardHandler(owner: owner, ownPort: shared.port.withLock { $0 })
                    let bound = NIOLoopBound(forward, eventLoop: channel.eventLoop)
                    let upgrader = NIOWebSocketServerUpgrader(
                        shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                        upgradePipelineHandler: { channel, head in
                            shared.moves.withLock { $0 += 1 }
                            let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
                            let reason = "http://\(owner.node)\(path)"
                            var data = channel.allocator.buffer(capacity: 2 + reason.utf8.count)
                            data.writeInteger(CloseCode.sessionMovedCode)
                            data.writeString(reason)
                            // The phone closes on reading it; close anyway a little later.
                            channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
                            return channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
                        })
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: (upgraders: [upgrader], completionHandler: { context in
                            context.pipeline.syncOperations.removeHandler(bound.value, promise: nil)
                        }), withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(forward)
                }
            }
        let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        shared.port.withLock { $0 = port }
        return MovingNode(port: port, shared: shared, channel: channel, group: group)
    }

    /// Stops listening.
    func stop() async throws {
        try await channel.close()
        try await group.shutdownGracefully()
    }
}

/// Forwards one HTTP request to the owner (PongClient's `HTTPClient`) and its answer back; a join's `websocketURL`
/// is made the absolute URL of the same path on this node.
private final class ForwardHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let owner: ServerAddress
    private let ownPort: Int
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(owner: ServerAddress, ownPort: Int) {
        self.owner = owner
        self.ownPort = ownPort
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(let part):
            body.append(contentsOf: part.readableBytesView)
        case .end:
            guard let head else { return }
            let headers = ["Authorization", "Content-Type"].compactMap { name in
                head.headers.first(name: name).map { (name, $0) }
            }
            let context = NIOLoopBound(context, eventLoop: context.eventLoop)
            let isJoin = head.method == .POST && head.uri.hasSuffix("/join")
            HTTPClient.send(head.method.rawValue, head.uri, body: body.isEmpty ? nil : body, headers: headers,
                            host: owner.host, port: owner.port, on: context.value.eventLoop)
                .whenComplete { [ownPort] result in
                    var status = 502
                    var bytes: [UInt8] = []
                    var retryAfter: String?
                    if case .success(let reply) = result {
                        status = reply.status
                        bytes = reply.body
                        retryAfter = reply.headers.first(name: "Retry-After")
                        if isJoin && status == 200 { bytes = Self.absoluteSocket(in: bytes, port: ownPort) }
                    }
                    Self.respond(context.value, status: status, body: bytes, retryAfter: retryAfter)
                }
        }
    }

    /// A join answer whose `websocketURL` path is made `http://127.0.0.1:PORT/path`.
    static func absoluteSocket(in body: [UInt8], port: Int) -> [UInt8] {
        guard var object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
              let path = object["websocketURL"] as? String,
              let data = try? JSONSerialization.data(withJSONObject: {
                  object["websocketURL"] = "http://127.0.0.1:\(port)\(path)"
                  return object
              }())
        else { return body }
        return Array(data)
    }

    private static func respond(_ context: ChannelHandlerContext, status: Int, body: [UInt8], retryAfter: String?) {
        var head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status))
        head.headers.add(name: "Content-Type", value: "application/json")
        head.headers.add(name: "Content-Length", value: "\(body.count)")
        head.headers.add(name: "Connection", value: "close")
        if let retryAfter { head.headers.add(name: "Retry-After", value: retryAfter) }
        context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
        context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }
}
