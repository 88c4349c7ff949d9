import Foundation
import Testing
@testable import SessionHub

/// Issue 12, exposure: origins (CORS and WebSocket upgrades), security headers, the metrics listener, and the data
/// folder's permissions, against a real server.
@Suite("End to end: exposure", .serialized, .timeLimit(.minutes(2)))
struct EndToEndExposureTests {
    private func code(_ answer: (status: Int, body: [String: Any], headers: [String: String])) -> String? {
        (answer.body["error"] as? [String: Any])?["code"] as? String
    }

    @Test("by default a page of another origin gets 403 origin_not_allowed; the own origin and apps pass")
    func defaultOrigins() async throws {
        let server = try await HubTestServer.start()
        let evil = try await server.call("POST", "/auth/guest", headers: [("Origin", "https://evil.example")])
        #expect(evil.status == 403)
        #expect(code(evil) == "origin_not_allowed")
        #expect(evil.headers["access-control-allow-origin"] == nil)
        let preflight = try await server.call("OPTIONS", "/auth/login", headers: [
            ("Origin", "https://evil.example"), ("Access-Control-Request-Method", "POST"),
        ])
        #expect(preflight.status == 403)
        let own = try await server.call("POST", "/auth/guest", headers: [("Origin", "http://127.0.0.1")])
        #expect(own.status == 201)
        #expect(own.headers["access-control-allow-origin"] == "http://127.0.0.1")
        let app = try await server.call("POST", "/auth/guest")
        #expect(app.status == 201)
        #expect(app.headers["access-control-allow-origin"] == nil)
        try await server.stop()
    }

    @Test("--allowed-origin: preflight answered with the allowed methods and headers; others refused")
    func configuredOrigins() async throws {
        let server = try await HubTestServer.start(allowedOrigins: ["https://pong.example"])
        let preflight = try await server.call("OPTIONS", "/auth/login", headers: [
            ("Origin", "https://pong.example"), ("Access-Control-Request-Method", "POST"),
            ("Access-Control-Request-Headers", "content-type, authorization"),
        ])
        #expect(preflight.status == 204)
        #expect(preflight.headers["access-control-allow-origin"] == "https://pong.example")
        #expect(preflight.headers["access-control-allow-methods"] == "GET, POST, OPTIONS")
        #expect(preflight.headers["access-control-allow-headers"] == "Authorization, Content-Type")
        #expect(preflight.headers["access-control-max-age"] == "600")
        let other = try await server.call("POST", "/auth/guest", headers: [("Origin", "http://127.0.0.1")])
        #expect(other.status == 403)
        try await server.stop()
    }

    @Test("a WebSocket upgrade from a refused origin gets 403; from the allowed one, or without Origin, 101")
    func upgrades() async throws {
        let server = try await HubTestServer.start(allowedOrigins: ["https://pong.example"])
        let hosted = try await server.hostSession()
        let path = "/sessions/\(hosted.code)/dashboard?token=\(hosted.hostToken)"
        let port = server.port
        let refused = await Task.detached { RawHTTP.status(port: port, request: RawHTTP.upgrade(path: path,
                                                                                             origin: "https://evil.example")) }.value
        #expect(refused == 403)
        let allowed = await Task.detached { RawHTTP.status(port: port, request: RawHTTP.upgrade(path: path,
                                                                                             origin: "https://pong.example")) }.value
        #expect(allowed == 101)
        let app = await Task.detached { RawHTTP.status(port: port, request: RawHTTP.upgrade(path: path, origin: nil)) }.value
        #expect(app == 101)
        try await server.stop()
    }

    @Test("every answer carries nosniff and no-referrer; API JSON is no-store")
    func securityHeaders() async throws {
        let server = try await HubTestServer.start()
        for (method, path) in [("GET", "/healthz"), ("POST", "/auth/guest"), ("GET", "/nowhere")] {
            let answer = try await server.call(method, path)
            #expect(answer.headers["x-content-type-options"] == "nosniff", "\(path)")
            #expect(answer.headers["referrer-policy"] == "no-referrer", "\(path)")
            #expect(answer.headers["cache-control"] == "no-store", "\(path)")
            #expect(answer.headers["vary"] == "Origin", "\(path)")
        }
        try await server.stop()
    }

    @Test("/metrics is served on the metrics listener only")
    func metricsListener() async throws {
        let server = try await HubTestServer.start()
        let publicAnswer = try await TestHTTPClient.request(.GET, port: server.port, path: "/metrics")
        #expect(publicAnswer.status == 404)
        let metrics = try await TestHTTPClient.request(.GET, port: server.metricsPort, path: "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.body.contains("pongd_live_sessions"))
        try await server.stop()
    }

    @Test("the data folder is 0700 and the database, its WAL and SHM, and the token key 0600, also when found wider")
    func permissions() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pongd-perm-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        let server = try await HubTestServer.start(dataDirectory: folder)
        _ = try await server.call("POST", "/auth/signup", json:
            #"{"name":"Hana","email":"hana@example.com","password":"ping pong rally 2026","acceptTerms":true}"#)
        func mode(_ name: String) throws -> Int {
            let path = name.isEmpty ? folder : folder + "/" + name
            return try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
        #expect(try mode("") == 0o700)
        for file in ["pongd.sqlite", "pongd.sqlite-wal", "pongd.sqlite-shm", "token.key"] {
            #expect(try mode(file) == 0o600, "\(file)")
        }
        try await server.stop()
        // Files made wider by hand (or by an older pongd) are narrowed at the next start.
        for file in ["", "pongd.sqlite", "token.key"] {
            let path = file.isEmpty ? folder : folder + "/" + file
            try FileManager.default.setAttributes([.posixPermissions: file.isEmpty ? 0o755 : 0o644], ofItemAtPath: path)
        }
        let again = try await HubTestServer.start(dataDirectory: folder)
        #expect(try mode("") == 0o700)
        #expect(try mode("pongd.sqlite") == 0o600)
        #expect(try mode("token.key") == 0o600)
        try await again.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }
}
