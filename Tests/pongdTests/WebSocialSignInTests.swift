import Foundation
import Testing

/// Social sign-in from the web page in a real browser (docs/WEB.md "Social sign-in"): `Tests/Browser/social_signin.py`
/// starts a fake OpenID Connect provider on the loopback interface (its key written as the JWKS file) and
/// `pongd serve --oidc-provider …,authorize=<provider>/authorize`, then drives Debian's headless Chromium: the
/// provider's button leaves for the provider, which sends the ID token back in the fragment of `/auth/callback`, and
/// the page reaches the profile step signed in and joins the session; a token for another nonce, another state and a cancelled sign-in are
/// each refused with their message.
@Suite("social sign-in in headless Chromium", .serialized, .timeLimit(.minutes(3)))
struct WebSocialSignInTests {
    static let python = "/usr/bin/python3"
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/social_signin.py").path

    /// Why the browser test cannot run here, or nil.
    static var unavailable: String? {
        for (path, package) in [("/usr/bin/chromium", "chromium"), ("/usr/bin/chromedriver", "chromium-driver")]
        where !FileManager.default.isExecutableFile(atPath: path) {
            return "\(path) is missing (apt-get install \(package)): no browser to drive"
        }
        guard (try? ToolRun.run(python, ["-c", "import selenium, cryptography"]))?.status == 0 else {
            return "\(python) lacks selenium or cryptography (apt-get install python3-selenium python3-cryptography)"
        }
        return nil
    }

    @Test("the provider's button signs in through the provider and back to the profile step; replayed nonce, wrong state, cancel refused",
          .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func signIn() throws {
        let started = ContinuousClock.now
        let run = try ToolRun.run(Self.python, [Self.script, "--pongd", try ToolRun.pongd().path])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
                                  "no report: \(run.stderr)")
        let checks = report["checks"] as? [String: [String: Any]] ?? [:]
        #expect(checks.count >= 13, "\(run.stderr)")
        for (name, result) in checks.sorted(by: { $0.key < $1.key }) {
            #expect(result["ok"] as? Bool == true, "\(name): \(result["detail"] ?? "")")
        }
        #expect(run.status == 0, "\(run.stderr)")
        print("social sign-in in the browser: \(ContinuousClock.now - started), \(run.stdout)")
    }
}
