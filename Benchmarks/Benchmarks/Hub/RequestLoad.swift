import NIOCore
import PongClient

/// Loopback source addresses for client connections: 127.0.x.y (x, y in 1…250), each handed out once.
///
/// pongd limits joins per client address (10 at once, refilled at 10 a minute; docs/PROTOCOL.md). Each measured
/// connection sends at most 10 requests from an address of its own, so the limiter is still consulted on every
/// join (its cost is in the figure) but never refuses one: the figure is the server's, not the limit's.
final class SourceAddresses: Sendable {
    private let handedOut = Locked(0)

    /// A loopback address no earlier call returned.
    func next() throws -> SocketAddress {
        let index = handedOut.withLock { count in
            defer { count += 1 }
            return count
        }
        guard index < 250 * 250 else { throw BenchError("out of loopback source addresses") }
        return try SocketAddress(ipAddress: "127.0.\(1 + index / 250).\(1 + index % 250)", port: 0)
    }
}

/// Closed-loop HTTP load: a fixed number of requests over a few concurrent keep-alive connections.
enum RequestLoad {
    /// Sends requests `0..<count` over `inFlight` concurrent connections. Each connection carries `perConnection`
    /// consecutive requests, one at a time, and is then closed; the next one is opened from a new source address
    /// when `addresses` is given (else from 127.0.0.1). Returns the replies in request order.
    static func run(
        count: Int, inFlight: Int, perConnection: Int, port: Int, group: any EventLoopGroup,
        addresses: SourceAddresses? = nil,
        request: @escaping @Sendable (_ index: Int, _ connection: HTTPConnection) async throws -> HTTPConnection.Reply
    ) async throws -> [HTTPConnection.Reply] {
        let chunks = (count + perConnection - 1) / perConnection
        let nextChunk = Locked(0)
        return try await withThrowingTaskGroup(of: [(Int, HTTPConnection.Reply)].self) { tasks in
            for _ in 0..<min(inFlight, chunks) {
                tasks.addTask {
                    var done: [(Int, HTTPConnection.Reply)] = []
                    while true {
                        let chunk = nextChunk.withLock { next in
                            defer { next += 1 }
                            return next
                        }
                        guard chunk < chunks else { return done }
                        let connection = try await HTTPConnection.connect(port: port, from: try addresses?.next(),
                                                                          group: group)
                        do {
                            for index in (chunk * perConnection)..<min(count, (chunk + 1) * perConnection) {
                                done.append((index, try await request(index, connection)))
                            }
                        } catch {
                            await connection.close()
                            throw error
                        }
                        await connection.close()
                    }
                }
            }
            var replies = [HTTPConnection.Reply?](repeating: nil, count: count)
            for try await part in tasks {
                for (index, reply) in part { replies[index] = reply }
            }
            return replies.compactMap { $0 }
        }
    }

    /// Throws unless every reply has `status`.
    static func expect(_ status: Int, _ replies: [HTTPConnection.Reply], _ what: String) throws {
        if let bad = replies.first(where: { $0.status != status }) {
            let body = String(decoding: bad.body.readableBytesView, as: UTF8.self)
            throw BenchError("\(what): expected \(status), got \(bad.status) \(body)")
        }
    }
}
