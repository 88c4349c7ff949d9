import Foundation
import Testing
@testable import SessionHub

/// `pongd serve --trusted-proxy CIDR` end to end (issue 13, item 1): behind a trusted proxy (loopback here) each
/// client is counted by the address the proxy forwarded, for the code-guess budget, the sockets and logins; from
/// any other peer, or without the flag, the headers are ignored.
@Suite("Trusted proxies end to end", .serialized)
struct TrustedProxyEndToEndTests {
    /// A server trusting `cidrs` (none: no proxy) with a budget of 2 failed lookups and 1 login per address.
    static func server(trusting cidrs: [String], header: TrustedProxies.Header = .xForwardedFor,
                       perAddress: Int = 256) async throws -> HubTestServer {
        var transport = TransportLimits()
        transport.trustedProxies = try #require(TrustedProxies(cidrs: cidrs, header: header))
        transport.maxConnectionsPerAddress = perAddress
        return try await HubTestServer.start(transport: transport, configure: {
            $0.codeGuessBurst = 2
            $0.codeGuessesPerSecond = 1.0 / 600
            $0.loginBurst = 1
            $0.loginsPerSecond = 1.0 / 600
        })
    }

    /// The status of a lookup of an unknown code sent with `header: value`.
    static func lookup(_ server: HubTestServer, _ index: Int, _ header: String, _ value: String) async throws -> Int {
        try await server.call("GET", "/sessions/\(CodeGuessingTests.unknownCode(index))", headers: [(header, value)]).status
    }

    @Test("X-Forwarded-For from a trusted proxy: each client has its own budget; a spoofed left-most entry counts as the real client")
    func xForwardedFor() async throws {
        let server = try await Self.server(trusting: ["127.0.0.0/8"])
        let xff = "X-Forwarded-For"
        #expect(try await Self.lookup(server, 0, xff, "203.0.113.1") == 404)
        #expect(try await Self.lookup(server, 1, xff, "203.0.113.1") == 404)
        #expect(try await Self.lookup(server, 2, xff, "203.0.113.1") == 429)
        #expect(try await Self.lookup(server, 3, xff, "203.0.113.2") == 404)
        #expect(try await Self.lookup(server, 4, xff, "203.0.113.2, 203.0.113.1") == 429)
        // The socket upgrade reads the same header.
        let path = "/sessions/\(CodeGuessingTests.unknownCode(5))/dashboard?token="
        let (token, _) = try await server.guest()
        let limited = try RawWebSocket(port: server.port, path: path + token, extra: "X-Forwarded-For: 203.0.113.1\r\n")
        #expect(limited.refusal().close == 4129)
        let fresh = try RawWebSocket(port: server.port, path: path + token, extra: "X-Forwarded-For: 203.0.113.9\r\n")
        #expect(fresh.refusal().close == 4000)
        // Logins are limited per forwarded address too.
        let login = #"{"email":"nobody@example.com","password":"not-the-password"}"#
        func loginStatus(_ address: String) async throws -> Int {
            try await server.call("POST", "/auth/login", json: login, headers: [(xff, address)]).status
        }
        #expect(try await loginStatus("198.51.100.1") == 401)
        #expect(try await loginStatus("198.51.100.1") == 429)
        #expect(try await loginStatus("198.51.100.2") == 401)
        try await server.stop()
    }

    @Test("without --trusted-proxy the headers are ignored: every client on the address shares one budget")
    func untrusted() async throws {
        let server = try await Self.server(trusting: [])
        let xff = "X-Forwarded-For"
        #expect(try await Self.lookup(server, 0, xff, "203.0.113.1") == 404)
        #expect(try await Self.lookup(server, 1, xff, "203.0.113.2") == 404)
        #expect(try await Self.lookup(server, 2, xff, "203.0.113.3") == 429)
        try await server.stop()
    }

    @Test("Forwarded (RFC 7239) when the proxies set it: quoted IPv6 with a port, an IPv6 /64 is one client; X-Forwarded-For then ignored")
    func forwarded() async throws {
        let server = try await Self.server(trusting: ["::1/128", "127.0.0.1"], header: .forwarded)
        let header = "Forwarded"
        #expect(try await Self.lookup(server, 0, header, #"for="[2001:db8::1]:4711""#) == 404)
        #expect(try await Self.lookup(server, 1, header, #"for="[2001:db8::2]:4711";proto=https"#) == 404)
        #expect(try await Self.lookup(server, 2, header, "for=\"[2001:db8::3]\"") == 429)
        #expect(try await Self.lookup(server, 3, header, "for=\"[2001:db8:0:1::1]\"") == 404)
        #expect(try await Self.lookup(server, 4, "X-Forwarded-For", "192.0.2.1") == 404)
        #expect(try await Self.lookup(server, 5, "X-Forwarded-For", "192.0.2.2") == 404)
        #expect(try await Self.lookup(server, 6, "X-Forwarded-For", "192.0.2.3") == 429, "the proxy's own budget")
        try await server.stop()
    }

    @Test("a trusted proxy is not held to the per-address connection cap at the accept; another peer is")
    func acceptCap() async throws {
        for (cidrs, served) in [(["127.0.0.0/8"], true), ([String](), false)] {
            let server = try await Self.server(trusting: cidrs, perAddress: 2)
            let held = try (0..<3).map { _ in try RawSocket(port: server.port) }
            if !served {
                // The accepts are counted on several event loops: once one of the three is refused (closed at
                // once), the other two are counted, and only then is the fourth connection sure to meet the cap.
                let refused = held.contains { $0.readUntilClosed(timeout: .milliseconds(500)).closed }
                #expect(refused, "a third connection from one address was not refused at the accept")
            }
            // A loaded machine may let one answer pass the 5 s read timeout: a served peer gets three tries (a
            // refused one is refused every time).
            var status: Int?
            for _ in 0..<(served ? 3 : 1) where status != 200 {
                status = RawHTTP.status(port: server.port, request: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            }
            #expect((status == 200) == served, "\(cidrs): \(String(describing: status))")
            held.forEach { $0.close() }
            try await server.stop()
        }
    }
}
