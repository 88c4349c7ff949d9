import Logging
import ServiceLifecycle
import Testing
@testable import SessionHub

@Suite("HTTP server")
struct HTTPServerTests {
    @Test("the real server on an ephemeral port answers /healthz and stops on graceful shutdown")
    func healthzAndShutdown() async throws {
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), logger: Logger(label: "test"))
        let group = ServiceGroup(services: [server], logger: Logger(label: "test"))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let port = try await server.boundPort
            #expect(port > 0)
            let health = try await TestHTTPClient.request(.GET, port: port, path: "/healthz")
            #expect(health.status == 200)
            #expect(health.body == #"{"status":"ok"}"#)
            let missing = try await TestHTTPClient.request(.GET, port: port, path: "/missing")
            #expect(missing.status == 404)
            #expect(missing.body.contains(#""code":"not_found""#))

            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            await #expect(throws: (any Error).self) {
                _ = try await TestHTTPClient.request(.GET, port: port, path: "/healthz")
            }
        }
    }
}
