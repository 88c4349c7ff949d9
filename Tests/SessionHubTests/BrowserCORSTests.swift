import TestSupport
import Foundation
import Testing
@testable import SessionHub

/// A real browser on another origin (issue 14, item 4): headless Chromium, driven through chromedriver by
/// python3-selenium (all Debian's), loads `Fixtures/cors/index.html` from a second origin (python3's http.server on
/// another port) and calls every route of the player journey with fetch(), and the player and dashboard WebSockets. With the page's
/// origin in `--allowed-origin` every answer is readable (errors, Retry-After and the transport's own 413 included);
/// from an origin that is not allowed the browser gets none of them.
@Suite("CORS in a real browser", .serialized)
struct BrowserCORSTests {
    /// Debian's python3 when it has selenium (a pyenv python3 earlier on the PATH may not).
    static let seleniumPython: ExternalTool? = {
        guard let python = ExternalTool(path: "/usr/bin/python3") else { return nil }
        return (try? python.run(["-c", "import selenium"]))?.status == 0 ? python : nil
    }()
    static let browser = ExternalTool("chromium")
    static let driver = ExternalTool("chromedriver")

    static func fixture(_ name: String) throws -> URL {
        try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/cors"))
    }

    @Test("a page of an allowed origin goes through the journey's routes and sockets; another origin is refused every answer",
          .enabled(if: browser != nil, "chromium is not installed (Debian: chromium)"),
          .enabled(if: driver != nil, "chromedriver is not installed (Debian: chromium-driver)"),
          .enabled(if: seleniumPython != nil, "/usr/bin/python3 cannot import selenium (Debian: python3-selenium)"),
          .timeLimit(.minutes(2)))
    func journeyFromAnotherOrigin() async throws {
        let pagePort = freeLoopbackPort()
        let allowed = "http://127.0.0.1:\(pagePort)"
        let server = try await HubTestServer.start(allowedOrigins: [allowed], configure: {
            $0.loginBurst = 2
            $0.loginsPerSecond = 0.01
        })
        let folder = try Self.fixture("index.html").deletingLastPathComponent()
        let pages = Process()
        pages.executableURL = URL(fileURLWithPath: try #require(ExternalTool("python3")).path)
        pages.arguments = ["-m", "http.server", "\(pagePort)", "--bind", "127.0.0.1", "--directory", folder.path]
        pages.standardOutput = FileHandle.nullDevice
        pages.standardError = FileHandle.nullDevice
        try pages.run()
        defer {
            // SIGKILL: the test process blocks SIGTERM on its threads, and the child inherits that mask.
            kill(pages.processIdentifier, SIGKILL)
            pages.waitUntilExit()
        }
        try await Self.waitUntilServing(port: pagePort)

        let api = "http://127.0.0.1:\(server.port)"
        let started = ContinuousClock.now
        let run = try await blocking {
            try Self.seleniumPython!.run([try Self.fixture("drive.py").path,
                                         "\(allowed)/index.html?api=\(api)",
                                         "http://localhost:\(pagePort)/index.html?api=\(api)"])
        }
        print("browser CORS run: \(ContinuousClock.now - started)")
        try await server.stop()
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map { jsonObject(String($0)) }
        try #require(lines.count == 2, "\(run.stdout) \(run.stderr)")
        let fromAllowed = lines[0], fromOther = lines[1]

        let expected: [String: Any] = [
            "guest": 201, "providers": 200, "profile": 200, "me": 200, "create": 201, "qr": 200,
            "qrType": "image/svg+xml", "qrImage": 232, "playerProfile": 200, "lobbySummary": 200, "join": 200,
            "lobby": 200, "socket": "welcome,readiness", "streams": 200, "unknownCode": "session_not_found",
            "loginLimited": 429, "retryAfter": "", "bigBody": 413, "dashboard": "welcome", "end": 200,
        ]
        for (step, value) in expected {
            let seen = fromAllowed[step].map { "\($0)" } ?? "missing"
            if step == "retryAfter" {
                #expect(Int(seen).map { $0 > 0 } == true, "Retry-After is exposed to the page: \(seen)")
            } else {
                #expect(seen == "\(value)", "\(step) from the allowed origin: \(seen)")
            }
        }
        for (step, value) in fromOther where step != "qrImage" && step != "qrType" && step != "retryAfter" {
            #expect("\(value)" == "blocked", "\(step) from an origin that is not allowed: \(value)")
        }
        #expect(fromOther.count >= 15, "\(fromOther)")
    }

    /// Waits until the page server answers on `port` (it starts in a fraction of a second).
    static func waitUntilServing(port: Int) async throws {
        for _ in 0..<100 {
            if let answer = try? await TestHTTPClient.request(.GET, port: port, path: "/index.html"), answer.status == 200 {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the page server did not start on port \(port)")
    }
}
