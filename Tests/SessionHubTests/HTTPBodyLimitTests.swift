import Foundation
import Testing
@testable import SessionHub

@Suite("Bodies over the limit are refused as soon as they pass it (413, then the connection closes)")
struct HTTPBodyLimitTests {
    @Test("a declared Content-Length over 3 MiB gets 413 before a byte of the body is sent")
    func declared() async throws {
        let server = try await HubTestServer.start()
        let port = server.port
        let (answer, closed) = try await blocking {
            let socket = try RawSocket(port: port)
            try socket.send("POST /auth/guest HTTP/1.1\r\nHost: x\r\nContent-Length: 104857600\r\n\r\n")
            let answer = socket.read(until: "}}", timeout: .seconds(5))
            return (answer, socket.readUntilClosed(timeout: .seconds(5)).closed)
        }
        #expect(answer.hasPrefix("HTTP/1.1 413"))
        #expect(answer.contains("payload_too_large"))
        #expect(answer.lowercased().contains("connection: close"))
        #expect(answer.lowercased().contains("x-content-type-options: nosniff"), "the transport's own answers too")
        #expect(closed)
        let metrics = try await TestHTTPClient.request(.GET, port: server.metricsPort, path: "/metrics")
        #expect(metrics.body.contains(#"pongd_errors_total{code="payload_too_large"} 1"#))
        try await server.stop()
    }

    @Test("the transport's 413 carries an allowed origin's CORS headers (a page can read it), none for another origin")
    func corsOnTransportAnswers() async throws {
        let server = try await HubTestServer.start(allowedOrigins: ["https://pong.example"])
        let port = server.port
        let answers = try await blocking {
            try ["https://pong.example", "https://evil.example"].map { origin in
                let socket = try RawSocket(port: port)
                try socket.send("POST /users/profile HTTP/1.1\r\nHost: x\r\nOrigin: \(origin)\r\n"
                    + "Content-Length: 104857600\r\n\r\n")
                return socket.read(until: "}}", timeout: .seconds(5)).lowercased()
            }
        }
        #expect(answers[0].hasPrefix("http/1.1 413"))
        #expect(answers[0].contains("access-control-allow-origin: https://pong.example"))
        #expect(answers[0].contains("access-control-expose-headers: retry-after"))
        #expect(answers[1].hasPrefix("http/1.1 413") && !answers[1].contains("access-control-allow-origin"))
        try await server.stop()
    }

    @Test("an endless chunked body gets 413 once 3 MiB have arrived, while the client is still sending")
    func streamed() async throws {
        let server = try await HubTestServer.start()
        let port = server.port
        let (answer, sentMiB, seconds) = try await blocking { () -> (String, Double, Double) in
            let socket = try RawSocket(port: port)
            try socket.send("POST /auth/guest HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x61, count: 65536) + Array("\r\n".utf8)
            let start = ContinuousClock.now
            var sent = 0
            var answer = [UInt8]()
            while start.duration(to: .now) < .seconds(20), answer.isEmpty {
                guard (try? socket.send(chunk)) != nil else { break }
                sent += chunk.count
                answer = socket.receive(timeout: .zero) ?? Array("closed".utf8)
            }
            answer += socket.read(until: "}}", timeout: .seconds(2)).utf8
            let elapsed = start.duration(to: .now)
            return (String(decoding: answer, as: UTF8.self), Double(sent) / 1_048_576,
                    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(80))")
        #expect(sentMiB < 12, "\(sentMiB) MiB sent before the answer")
        #expect(seconds < 5, "\(seconds) s")
        try await server.stop()
    }
}
