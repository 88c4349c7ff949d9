import Foundation
import Logging
import NIOCore
@testable import PongWire
import ServiceLifecycle
@testable import SessionHub

/// An echo route on pongd's own WebSocket transport, for the Autobahn TestSuite (whose server cases expect every
/// text and binary message back as sent): any path is a socket, messages go back unchanged.
///
/// Everything else is pongd's: the `HTTPServer` upgrade, `WebSocketFrameChecks`, the aggregator and its 256 KiB cap
/// (1009), the 64 KiB text cap (answered with an `error`, as the hub does), UTF-8 validation (1007), close handling
/// (`WebSocketCloseCheck`), ping answers and the output limit. Only the message rates are raised (the suite's
/// 1000-message round trips, 9.7/9.8, are faster than pongd's 30 texts/s) and the server's keep-alive ping is pushed
/// past the run (a ping the suite did not ask for breaks the event sequences it compares).
struct AutobahnEchoRoute: WebSocketRoute {
    /// Rates the suite's bursts stay under (9.7.x/9.8.x send 1000 messages back to back).
    static let rates = WebSocketMessageRates(textBurst: 100_000, textPerSecond: 100_000, binaryBurst: 100_000,
                                             binaryPerSecond: 100_000)

    func endpoint(uri: String) -> WebSocketEndpoint? {
        WebSocketEndpoint(sessionCode: "autobahn", role: .dashboard, token: nil)
    }

    var messageRates: WebSocketMessageRates { Self.rates }

    func opened(_ connection: WebSocketConnection) {}

    func received(text: [UInt8], from connection: WebSocketConnection) {
        // The transport let only valid UTF-8 through: the decoding is lossless.
        connection.send(text: String(decoding: text, as: UTF8.self))
    }

    func received(binary: ByteBuffer, from connection: WebSocketConnection) {
        connection.send(binary: binary)
    }

    func oversized(bytes: Int, from connection: WebSocketConnection) {
        connection.send(text: (try? MessageCodec.encode(.error(.messageTooLarge(limit: WebSocketLimits.maxTextBytes))))
            ?? "message_too_large")
    }

    func closed(_ connection: WebSocketConnection) {}
}

/// pongd's `HTTPServer` with the `AutobahnEchoRoute`, on a free loopback port.
final class AutobahnEchoServer {
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    static func start() async throws -> AutobahnEchoServer {
        var logger = Logger(label: "autobahn-echo")
        logger.logLevel = .warning
        var limits = TransportLimits()
        limits.pingInterval = .seconds(3600)
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, limits: limits), logger: logger,
                                router: HTTPRouter(), webSockets: AutobahnEchoRoute())
        let group = ServiceGroup(services: [server], logger: logger)
        let task = Task { try await group.run() }
        return AutobahnEchoServer(port: try await server.boundPort, group: group, task: task)
    }

    private init(port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.group = group
        self.task = task
    }

    /// Stops the server gracefully and waits for it.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
    }
}
