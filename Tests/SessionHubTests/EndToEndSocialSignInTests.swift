import Foundation
@testable import PongWire
import Testing
@testable import SessionHub

/// `POST /auth/social` and `GET /auth/providers` on a real server, with ID tokens of a local issuer made by the tests
/// (issue 14, item 3): answered like a login, an identity keeps its account, verified emails link, and every bad
/// token gets its documented error.
@Suite("Social sign-in end to end")
struct EndToEndSocialSignInTests {
    /// A server whose provider `test` is the local issuer (key set file with `k1` and the EC key).
    static func server(configure: (inout HubConfiguration) -> Void = { _ in }) async throws -> HubTestServer {
        let path = try TestIssuer.writeKeySet(TestIssuer.jwks(["k1"], ec: true))
        return try await HubTestServer.start(configure: {
            $0.oidcProviders = [TestIssuer.provider(.file(path))]
            configure(&$0)
        })
    }

    /// `POST /auth/social` for provider `test` with `token`.
    static func signIn(_ server: HubTestServer, _ token: String, provider: String = "test") async throws
        -> (status: Int, body: [String: Any], headers: [String: String])
    {
        try await server.call("POST", "/auth/social", json: #"{"provider":"\#(provider)","idToken":"\#(token)"}"#)
    }

    @Test("GET /auth/providers lists the configured providers, and nothing without any")
    func providers() async throws {
        let none = try await HubTestServer.start()
        let empty = try await TestHTTPClient.request(.GET, port: none.port, path: "/auth/providers")
        #expect(empty.status == 200 && empty.body == #"{"providers":[]}"#)
        let social = try await none.call("POST", "/auth/social", json: #"{"provider":"google","idToken":"x"}"#)
        #expect(social.status == 400 && CodingErrors.code(social.body) == "unknown_provider")
        try await none.stop()
        let server = try await Self.server()
        let listed = try await TestHTTPClient.request(.GET, port: server.port, path: "/auth/providers")
        #expect(listed.status == 200 && listed.body == #"{"providers":[{"id":"test","name":"Test"}]}"#)
        try await server.stop()
        var web = TestIssuer.provider(.file("/nonexistent/jwks.json"), id: "web")
        web.audiences = ["web-client", "ios-client"]
        web.authorizationURL = URL(string: "https://issuer.test/authorize?prompt=login")
        let withButton = try await HubTestServer.start(configure: {
            $0.oidcProviders = [web, TestIssuer.provider(.file("/nonexistent/jwks.json"))]
        })
        let both = try await withButton.call("GET", "/auth/providers")
        let providers = try #require(both.body["providers"] as? [[String: String]])
        #expect(providers == [
            ["id": "web", "name": "Test", "authorizationURL": "https://issuer.test/authorize?prompt=login",
             "clientId": "web-client"],
            ["id": "test", "name": "Test"],
        ], "the authorization endpoint and the first audience, only for a provider with authorize=")
        try await withButton.stop()
    }

    @Test("with a nonce in the body, only a token whose nonce claim is that one signs in (401 invalid_id_token)")
    func nonce() async throws {
        let server = try await Self.server()
        var claims = TestIssuer.claims()
        claims.nonce = "n-0123456789abcdef"
        let token = try await TestIssuer.sign(claims)
        func post(_ body: String) async throws -> (status: Int, body: [String: Any], headers: [String: String]) {
            try await server.call("POST", "/auth/social", json: body)
        }
        let matching = try await post(#"{"provider":"test","idToken":"\#(token)","nonce":"n-0123456789abcdef"}"#)
        #expect(matching.status == 200 && matching.body["token"] != nil)
        let other = try await post(#"{"provider":"test","idToken":"\#(token)","nonce":"n-another"}"#)
        #expect(other.status == 401 && CodingErrors.code(other.body) == "invalid_id_token")
        #expect(CodingErrors.message(other.body) == APIError.idTokenNonceMismatch.message)
        let withoutClaim = try await TestIssuer.sign(TestIssuer.claims())
        let missing = try await post(#"{"provider":"test","idToken":"\#(withoutClaim)","nonce":"n-0123456789abcdef"}"#)
        #expect(missing.status == 401 && CodingErrors.message(missing.body) == APIError.idTokenNonceMismatch.message,
                "a token without a nonce claim cannot answer a sign-in that sent one")
        let noNonce = try await post(#"{"provider":"test","idToken":"\#(token)"}"#)
        #expect(noNonce.status == 200, "an app that sent no nonce is not asked for one")
        let wrongType = try await post(#"{"provider":"test","idToken":"\#(token)","nonce":7}"#)
        #expect(wrongType.status == 400)
        try await server.stop()
    }

    @Test("a valid ID token answers like a login; the same identity gets the same account; the token is a user's")
    func signIn() async throws {
        let server = try await Self.server()
        var claims = TestIssuer.claims()
        claims.name = "Ana Social"
        let first = try await Self.signIn(server, try await TestIssuer.sign(claims))
        #expect(first.status == 200)
        #expect(Set(first.body.keys) == ["userId", "token"], "exactly the login body")
        let userId = try #require(first.body["userId"] as? String)
        let again = try await Self.signIn(server, try await TestIssuer.signEC(claims))
        #expect(again.body["userId"] as? String == userId, "provider + sub is the account, whatever key signed")
        let me = try await server.call("GET", "/users/me", token: try #require(again.body["token"] as? String))
        #expect(me.status == 200 && me.body["guest"] as? Bool == false)
        let session = try await server.call("POST", "/sessions", token: try #require(first.body["token"] as? String),
                                            json: #"{"mode":"rally","pointsToWin":11}"#)
        #expect(session.status == 201)
        let lobby = try await server.call("GET", "/sessions/\(try #require(session.body["code"] as? String))",
                                          token: try #require(session.body["hostToken"] as? String))
        #expect((lobby.body["host"] as? [String: Any])?["name"] as? String == "Ana Social", "the token's name")
        try await server.stop()
    }

    @Test("a verified email links to its password account; an unverified one never does; a new account keeps its verified email")
    func linking() async throws {
        let server = try await Self.server()
        let signup = try await server.call("POST", "/auth/signup", json:
            #"{"name":"Ana","email":"ana@example.com","password":"correct horse battery","acceptTerms":true}"#)
        let ana = try #require(signup.body["userId"] as? String)
        var claims = TestIssuer.claims(subject: "unverified")
        claims.email = "ANA@example.com"
        claims.emailVerified = .bool(false)
        let unverified = try await Self.signIn(server, try await TestIssuer.sign(claims))
        #expect(unverified.status == 200 && unverified.body["userId"] as? String != ana)
        claims = TestIssuer.claims(subject: "verified")
        claims.email = "ANA@example.com"
        claims.emailVerified = .text("true")
        let verified = try await Self.signIn(server, try await TestIssuer.sign(claims))
        #expect(verified.body["userId"] as? String == ana, "linked to the account of the verified email")
        let stored = try server.hub.store.identities(of: UserID(ana))
        #expect(stored.map(\.provider) == ["test"] && stored.map(\.subject) == ["verified"])

        claims = TestIssuer.claims(subject: "newcomer")
        claims.email = "bo@example.com"
        claims.emailVerified = .bool(true)
        let newcomer = try await Self.signIn(server, try await TestIssuer.sign(claims))
        #expect(newcomer.status == 200)
        let taken = try await server.call("POST", "/auth/signup", json:
            #"{"name":"Bo","email":"bo@example.com","password":"another long passphrase","acceptTerms":true}"#)
        #expect(taken.status == 409 && CodingErrors.code(taken.body) == "email_taken")
        let login = try await server.call("POST", "/auth/login", json:
            #"{"email":"bo@example.com","password":"another long passphrase"}"#)
        #expect(login.status == 401 && CodingErrors.code(login.body) == "invalid_credentials",
                "a social account has no password")
        try await server.stop()
    }

    @Test("bad tokens get their documented errors, never a crash; bodies are bounded")
    func errors() async throws {
        let server = try await Self.server()
        var expired = TestIssuer.claims(now: Date().addingTimeInterval(-7200))
        expired.exp = Date().addingTimeInterval(-3600)
        var wrongAudience = TestIssuer.claims()
        wrongAudience.aud = .one("someone-else")
        var wrongIssuer = TestIssuer.claims()
        wrongIssuer.iss = "https://evil.test"
        var future = TestIssuer.claims()
        future.iat = Date().addingTimeInterval(600)
        let cases: [(String, Int, String, String?)] = [
            (try await TestIssuer.sign(expired), 401, "id_token_expired", nil),
            (try await TestIssuer.sign(wrongAudience), 401, "invalid_id_token", APIError.idTokenWrongAudience.message),
            (try await TestIssuer.sign(wrongIssuer), 401, "invalid_id_token", APIError.idTokenWrongIssuer.message),
            (try await TestIssuer.sign(future), 401, "invalid_id_token", APIError.idTokenNotYetValid.message),
            (try await TestIssuer.sign(TestIssuer.claims(), key: "k2", kid: "k1"), 401, "invalid_id_token",
             APIError.invalidIDToken.message),
            (try await TestIssuer.sign(TestIssuer.claims(), key: "k2"), 401, "invalid_id_token", nil),
            (try await TestIssuer.unsigned(TestIssuer.claims()), 401, "invalid_id_token", nil),
            (try await TestIssuer.hmacWithPublicKey(TestIssuer.claims()), 401, "invalid_id_token", nil),
            ("not a token", 401, "invalid_id_token", nil),
        ]
        for (token, status, code, message) in cases {
            let answer = try await Self.signIn(server, token)
            #expect(answer.status == status && CodingErrors.code(answer.body) == code, "\(code): \(answer.body)")
            if let message { #expect(CodingErrors.message(answer.body) == message) }
        }
        let unknown = try await Self.signIn(server, "x", provider: "google")
        #expect(unknown.status == 400 && CodingErrors.code(unknown.body) == "unknown_provider")
        let missing = try await server.call("POST", "/auth/social", json: #"{"provider":"test"}"#)
        #expect(missing.status == 400 && CodingErrors.code(missing.body) == "missing_field")
        let huge = try await Self.signIn(server, String(repeating: "a", count: 20_000))
        #expect(huge.status == 413 && CodingErrors.code(huge.body) == "payload_too_large")
        let get = try await server.call("GET", "/auth/social")
        #expect(get.status == 405)
        try await server.stop()
    }

    @Test("sign-ins are limited per client address like logins (429 too_many_attempts with Retry-After)")
    func limited() async throws {
        let server = try await Self.server(configure: {
            $0.loginBurst = 3
            $0.loginsPerSecond = 0.01
        })
        let token = try await TestIssuer.sign(TestIssuer.claims())
        var statuses: [Int] = []
        for _ in 0..<4 { statuses.append(try await Self.signIn(server, token).status) }
        #expect(statuses == [200, 200, 200, 429])
        let limited = try await Self.signIn(server, token)
        #expect(CodingErrors.code(limited.body) == "too_many_attempts" && limited.headers["retry-after"] != nil)
        try await server.stop()
    }
}

/// Reading `{"error":{"code","message"}}` bodies.
enum CodingErrors {
    static func code(_ body: [String: Any]) -> String? { (body["error"] as? [String: Any])?["code"] as? String }
    static func code(_ body: String) -> String? {
        code((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:])
    }
    static func message(_ body: [String: Any]) -> String? { (body["error"] as? [String: Any])?["message"] as? String }
}
