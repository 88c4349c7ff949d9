import Foundation
import Logging
import SessionHub

/// A real pongd (`PongServer`: hub, store, HTTP and WebSocket listener) on 127.0.0.1, an ephemeral port, and a
/// fresh temporary data folder. It runs on NIO's singleton event loop group (one thread per core), as `pongd serve`.
final class BenchServer: Sendable {
    /// The port the server listens on.
    let port: Int
    private let dataDirectory: String
    private let task: Task<Void, any Error>

    private init(port: Int, dataDirectory: String, task: Task<Void, any Error>) {
        self.port = port
        self.dataDirectory = dataDirectory
        self.task = task
    }

    /// Starts a server and waits until it listens. Logging is limited to errors so it costs nothing measurable.
    static func start() async throws -> BenchServer {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("pongd-bench-\(UUID().uuidString)").path
        var logger = Logger(label: "pongd.bench")
        logger.logLevel = .error
        let server = try PongServer(host: "127.0.0.1", port: 0, dataDirectory: folder, logger: logger)
        let task = Task { try await server.run() }
        do {
            return BenchServer(port: try await server.boundPort, dataDirectory: folder, task: task)
        } catch {
            task.cancel()
            throw error
        }
    }

    /// Stops listening (cancelling `run()` is its shutdown outside a ServiceGroup) and deletes the data folder.
    func stop() async {
        task.cancel()
        _ = try? await task.value
        try? FileManager.default.removeItem(atPath: dataDirectory)
    }
}
