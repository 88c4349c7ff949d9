import NIOCore
import PongClient

/// A player's WebSocket (`/sessions/{code}/player/{userId}?token=…`) for the fan-out benchmark: sends text
/// frames; every text frame it receives is stamped on the client's event loop and handed to `Arrivals`.
final class PlayerSocket: Sendable {
    private let client: WebSocketClient

    private init(client: WebSocketClient) {
        self.client = client
    }

    /// Connects to 127.0.0.1:`port` and completes the upgrade on `pathAndQuery`; messages go to `arrivals` as
    /// socket `index`.
    static func connect(port: Int, pathAndQuery: String, index: Int, arrivals: Arrivals,
                        group: any EventLoopGroup) async throws -> PlayerSocket {
        let configuration = WebSocketClient.Configuration(host: "127.0.0.1", port: port, path: pathAndQuery,
                                                          noDelay: true)
        let client = WebSocketClient.connect(configuration, on: group.next()) { _, event in
            let now = ContinuousClock.now
            switch event {
            case .text(let text):
                arrivals.record(socket: index, text: text, at: now)
            case .closed:
                arrivals.closed(socket: index)
            case .opened, .writable:
                break
            }
        }
        try await client.upgraded.get()
        return PlayerSocket(client: client)
    }

    /// Sends a text frame (masked, as clients must) and waits until it is written.
    func send(_ text: String) async throws {
        try await client.write(text: text)
    }

    /// Hands a text frame to the socket without waiting; the event loop writes it.
    func post(_ text: String) {
        client.send(text: text)
    }

    /// Closes the socket.
    func close() async {
        await client.dropAndWait()
    }
}
