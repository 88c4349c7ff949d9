import Testing
@testable import SessionHub

@Suite("OriginPolicy: which web origins may use the server")
struct OriginPolicyTests {
    @Test("no Origin header (a native app) is always allowed")
    func noOrigin() {
        #expect(OriginPolicy().allows(origin: nil, host: "pong.example"))
        #expect(OriginPolicy(allowedOrigins: ["https://a.example"]).allows(origin: nil, host: nil))
    }

    @Test("by default only the server's own origin: the Host's and --public-url's")
    func sameOrigin() {
        let policy = OriginPolicy(publicBaseURL: "https://pong.example/app")
        #expect(policy.allows(origin: "https://pong.example", host: "10.0.0.2:8080"))
        #expect(policy.allows(origin: "http://10.0.0.2:8080", host: "10.0.0.2:8080"))
        #expect(policy.allows(origin: "https://PONG.example:443", host: nil))
        #expect(!policy.allows(origin: "https://evil.example", host: "10.0.0.2:8080"))
        #expect(!policy.allows(origin: "null", host: "10.0.0.2:8080"))
        #expect(!policy.allows(origin: "http://10.0.0.2:8081", host: "10.0.0.2:8080"))
    }

    @Test("with --allowed-origin, exactly those")
    func configured() {
        let policy = OriginPolicy(allowedOrigins: ["https://pong.example/", "http://localhost:3000"])
        #expect(policy.allows(origin: "https://pong.example", host: "api.example"))
        #expect(policy.allows(origin: "http://localhost:3000", host: "api.example"))
        #expect(!policy.allows(origin: "http://localhost:3001", host: "api.example"))
        #expect(!policy.allows(origin: "https://api.example", host: "api.example"))
    }

    @Test("with --allowed-origin, --public-url's origin (pongd's own pages) is still allowed; the Host's is not")
    func publicOriginWithAllowedOrigins() {
        let policy = OriginPolicy(allowedOrigins: ["https://app.example"], publicBaseURL: "https://pong.example")
        #expect(policy.allows(origin: "https://pong.example", host: "pong.example"))
        #expect(policy.allows(origin: "https://app.example", host: "pong.example"))
        #expect(!policy.allows(origin: "https://rebound.example", host: "rebound.example"), "DNS rebinding: Host is no proof")
    }

    @Test("origins are normalised", arguments: [
        ("HTTPS://Pong.Example", "https://pong.example"), ("http://a.example:80", "http://a.example"),
        ("https://a.example:8443/x?y", "https://a.example:8443"),
    ])
    func normalised(input: String, expected: String) {
        #expect(OriginPolicy.origin(of: input) == expected)
    }

    @Test("not origins", arguments: ["null", "", "file:///x", "ftp://a.example", "https://", "https://u@a.example"])
    func invalid(input: String) {
        #expect(OriginPolicy.origin(of: input) == nil)
    }
}
