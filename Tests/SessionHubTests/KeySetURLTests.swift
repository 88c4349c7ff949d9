import TestSupport
import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import Testing
@testable import SessionHub

/// A provider's key set fetched from a URL (Foundation's URLSession), from a local HTTP server the test runs: the
/// fetch, its size bound, a failing server, and the once-a-minute refresh on an unknown kid.
@Suite("Key sets from a URL")
struct KeySetURLTests {
    /// Serves one document at any path and counts the requests.
    struct KeySetServer: HTTPRouting {
        let answer = NIOLockedValueBox((status: 200, body: ""))
        /// A `Location` to answer 302 with, instead of `answer`.
        let redirect = NIOLockedValueBox<String?>(nil)
        let requests = NIOLockedValueBox(0)

        func respond(to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void) {
            requests.withLockedValue { $0 += 1 }
            if let location = redirect.withLockedValue({ $0 }), request.path == "/certs" {
                return completion(HTTPResponse(status: 302, contentType: "text/plain", body: [],
                                               headers: [("Location", location)]))
            }
            let (status, body) = answer.withLockedValue { $0 }
            completion(HTTPResponse(status: status, contentType: "application/json", body: Array(body.utf8)))
        }
    }

    /// Runs `body` with a key set server on a free port of `host` (a loopback address) and its URL.
    static func withServer(host: String = "127.0.0.1", _ body: (KeySetServer, URL) async throws -> Void) async throws {
        let router = KeySetServer()
        let server = HTTPServer(configuration: .init(host: host, port: 0), logger: Logger(label: "test"),
                                router: router, webSockets: nil)
        let group = ServiceGroup(services: [server], logger: Logger(label: "test"))
        let task = Task { try await group.run() }
        let port = try await server.boundPort
        do {
            try await body(router, URL(string: "http://\(host):\(port)/certs")!)
        } catch {
            await group.triggerGracefulShutdown()
            throw error
        }
        await group.triggerGracefulShutdown()
        try await task.value
    }

    @Test("fetched, verified against, and fetched again for a rotated key only after a minute")
    func rotation() async throws {
        try await Self.withServer { server, url in
            server.answer.withLockedValue { $0 = (200, TestIssuer.jwks(["k1"])) }
            let clock = TestWallClock()
            let verifier = IDTokenVerifier(provider: TestIssuer.provider(.url(url)), now: { clock.now },
                                           logger: Logger(label: "test"))
            #expect(try await verifier.verify(try await TestIssuer.sign(TestIssuer.claims(now: clock.now))).subject
                    == "user-1")
            server.answer.withLockedValue { $0 = (200, TestIssuer.jwks(["k1", "k2"])) }
            let rotated = try await TestIssuer.sign(TestIssuer.claims(now: clock.now), key: "k2")
            #expect(await IDTokenVerifierTests.refusal(verifier, rotated) == .unknownKey("k2"))
            #expect(server.requests.withLockedValue { $0 } == 1, "no second fetch within the minute")
            clock.advance(by: 61)
            #expect(await IDTokenVerifierTests.refusal(verifier, rotated) == nil)
            #expect(server.requests.withLockedValue { $0 } == 2)
        }
    }

    @Test("a redirect is followed to the loopback or https only: to plain http elsewhere it loads nothing")
    func redirects() async throws {
        try await Self.withServer { server, url in
            let token = try await TestIssuer.sign(TestIssuer.claims())
            server.answer.withLockedValue { $0 = (200, TestIssuer.jwks(["k1"])) }
            server.redirect.withLockedValue { $0 = url.absoluteString.replacingOccurrences(of: "/certs", with: "/moved") }
            let local = IDTokenVerifier(provider: TestIssuer.provider(.url(url)), now: Date.init,
                                        logger: Logger(label: "test"))
            #expect(await IDTokenVerifierTests.refusal(local, token) == nil, "followed on the loopback")
            #expect(server.requests.withLockedValue { $0 } == 2)
            // 127.0.0.2 is this machine too, but not an address `--oidc-provider` takes plain http from: a redirect
            // there would be followed without the check, and load the keys.
            try await Self.withServer(host: "127.0.0.2") { elsewhere, elsewhereURL in
                elsewhere.answer.withLockedValue { $0 = (200, TestIssuer.jwks(["k1"])) }
                server.redirect.withLockedValue { $0 = elsewhereURL.absoluteString }
                let away = IDTokenVerifier(provider: TestIssuer.provider(.url(url)), now: Date.init,
                                           logger: Logger(label: "test"))
                guard case .keysUnavailable = await IDTokenVerifierTests.refusal(away, token) else {
                    Issue.record("a redirect to plain http off the allowed loopback names was followed")
                    return
                }
                #expect(elsewhere.requests.withLockedValue { $0 } == 0)
            }
        }
    }

    @Test("a key set over 64 KiB, a 404 or a closed port loads nothing: 503-style keysUnavailable, not a crash")
    func failures() async throws {
        try await Self.withServer { server, url in
            let token = try await TestIssuer.sign(TestIssuer.claims())
            server.answer.withLockedValue { $0 = (200, TestIssuer.jwks(["k1"]) + String(repeating: " ", count: 70_000)) }
            let large = IDTokenVerifier(provider: TestIssuer.provider(.url(url)), now: Date.init,
                                        logger: Logger(label: "test"))
            guard case .keysUnavailable = await IDTokenVerifierTests.refusal(large, token) else {
                Issue.record("a key set over 64 KiB was used")
                return
            }
            server.answer.withLockedValue { $0 = (404, "{}") }
            let missing = IDTokenVerifier(provider: TestIssuer.provider(.url(url)), now: Date.init,
                                          logger: Logger(label: "test"))
            guard case .keysUnavailable = await IDTokenVerifierTests.refusal(missing, token) else {
                Issue.record("a 404 key set was used")
                return
            }
        }
        let closed = URL(string: "http://127.0.0.1:\(freeLoopbackPort())/certs")!
        let nowhere = IDTokenVerifier(provider: TestIssuer.provider(.url(closed)), now: Date.init,
                                      logger: Logger(label: "test"))
        guard case .keysUnavailable = await IDTokenVerifierTests.refusal(nowhere, try await TestIssuer.sign(TestIssuer.claims()))
        else {
            Issue.record("a closed port gave keys")
            return
        }
    }
}
