import Foundation
import Testing
import PongWire
@testable import SessionHub

/// The host's QR code of a session's join URL (`GET /sessions/{code}/qr.svg`, issue 14): made by libqrencode,
/// drawn as one SVG path, and read back by a real decoder.
@Suite("QR codes of join URLs")
struct QRCodeTests {
    /// The modules an SVG made by `QRCode.svg()` draws, quiet zone included: row-major, true is dark. Reads the
    /// `viewBox` and every `M x y h n v1 h-n z` rectangle of the one path.
    static func drawnModules(_ svg: String) throws -> (side: Int, dark: [Bool]) {
        let viewBox = try #require(svg.firstMatch(of: /viewBox="0 0 (\d+) (\d+)"/))
        let side = try #require(Int(viewBox.1))
        #expect(Int(viewBox.2) == side, "square")
        var dark = Array(repeating: false, count: side * side)
        let path = try #require(svg.firstMatch(of: /<path fill="#000" d="([^"]*)"\/>/)).1
        var covered = 0
        for run in path.matches(of: /M(\d+) (\d+)h(\d+)v1h-(\d+)z/) {
            let (x, y, width) = (Int(run.1)!, Int(run.2)!, Int(run.3)!)
            #expect(Int(run.4) == width, "each run closes on itself")
            for column in x..<(x + width) { dark[y * side + column] = true }
            covered += run.0.count
        }
        #expect(covered == path.count, "the path is nothing but module runs")
        return (side, dark)
    }

    /// Checks that `svg` draws exactly `symbol`, module for module, inside a light quiet zone of 4 modules.
    static func expectDraws(_ svg: String, _ symbol: QRCode) throws {
        let (side, dark) = try drawnModules(svg)
        let quiet = QRCode.quietZone
        #expect(side == symbol.size + 2 * quiet)
        var mismatches = 0
        for y in 0..<side {
            for x in 0..<side {
                let inside = (quiet..<(quiet + symbol.size)).contains(x) && (quiet..<(quiet + symbol.size)).contains(y)
                let expected = inside && symbol.isDark(x: x - quiet, y: y - quiet)
                if dark[y * side + x] != expected { mismatches += 1 }
            }
        }
        #expect(mismatches == 0, "\(mismatches) modules differ from libqrencode's matrix")
    }

    @Test("level M, the smallest version; the SVG is one crisp path drawing libqrencode's matrix module for module")
    func svgDrawsTheMatrix() throws {
        let url = "https://pong.example/join/ABC234"
        let symbol = try #require(QRCode(encoding: url))
        // 32 bytes in byte mode: version 2 holds 26 at level M, version 3 holds 42.
        #expect(symbol.version == 3 && symbol.size == 29)
        #expect(try #require(QRCode(encoding: url, errorCorrection: .low)).version == 2, "level L fits in version 2")
        let svg = symbol.svg()
        #expect(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="296" height="296""#))
        #expect(svg.contains(#"shape-rendering="crispEdges""#))
        #expect(svg.matches(of: /<path/).count == 1)
        try Self.expectDraws(svg, symbol)
        // The finder pattern's corner is dark, the module inside its white ring light.
        #expect(symbol.isDark(x: 0, y: 0) && !symbol.isDark(x: 1, y: 1) && symbol.isDark(x: 2, y: 2))
    }

    @Test("an empty text or one too long for any QR code has no symbol")
    func unencodable() {
        #expect(QRCode(encoding: "") == nil)
        #expect(QRCode(encoding: String(repeating: "x", count: 3000)) == nil)
        #expect(QRCode(encoding: String(repeating: "x", count: 2000)) != nil)
    }

    @Test("GET /sessions/{code}/qr.svg: the live session's join URL as cacheable SVG; malformed 400, unknown 404 and counted as a failed lookup; the host passes a spent budget")
    func endpoint() async throws {
        let server = try await HubTestServer.start(publicBaseURL: "https://pong.example", configure: {
            $0.codeGuessBurst = 2
            $0.codeGuessesPerSecond = 0.001
        })
        let session = try await server.hostSession()
        let lower = session.code.lowercased()
        let typed = String(lower.prefix(3)) + "-" + String(lower.suffix(3))
        let answer = try await TestHTTPClient.request(.GET, port: server.port, path: "/sessions/\(typed)/qr.svg")
        #expect(answer.status == 200)
        #expect(answer.headers.first(name: "content-type") == "image/svg+xml")
        #expect(answer.headers.first(name: "cache-control") == "public, max-age=3600")
        #expect(answer.headers.first(name: "x-content-type-options") == "nosniff")
        try Self.expectDraws(answer.body, try #require(QRCode(encoding: "https://pong.example/join/\(session.code)")))

        let malformed = try await server.call("GET", "/sessions/ABC-23/qr.svg")
        #expect(malformed.status == 400 && errorCode(malformed.body) == "invalid_session_code")
        let unknown = try await server.call("GET", "/sessions/\(CodeGuessingTests.unknownCode(1))/qr.svg")
        #expect(unknown.status == 404 && errorCode(unknown.body) == "session_not_found")
        _ = try await server.call("GET", "/sessions/\(CodeGuessingTests.unknownCode(2))/qr.svg")
        let spent = try await server.call("GET", "/sessions/\(session.code)/qr.svg")
        #expect(spent.status == 429 && errorCode(spent.body) == "too_many_code_guesses",
                "two unknown codes spent the budget of 2: the QR code is a code lookup like the others")
        let host = try await TestHTTPClient.request(.GET, port: server.port, path: "/sessions/\(session.code)/qr.svg",
                                                    headers: [("Authorization", "Bearer \(session.hostToken)")])
        #expect(host.status == 200, "the host knows the code")
        let post = try await server.call("POST", "/sessions/\(session.code)/qr.svg")
        #expect(post.status == 405)
        try await server.stop()
    }

    @Test("a live session's QR code is drawn once and kept while it lives; ended, it is forgotten")
    func cachedWhileLive() async throws {
        let server = try await HubTestServer.start(publicBaseURL: "https://pong.example")
        let session = try await server.hostSession()
        let code = try #require(SessionCode(userInput: session.code))
        let path = "/sessions/\(session.code)/qr.svg"
        let first = try await TestHTTPClient.request(.GET, port: server.port, path: path)
        #expect(server.hub.qrCodes.withLockedValue { $0[code] } == Array(first.body.utf8))
        let second = try await TestHTTPClient.request(.GET, port: server.port, path: path)
        #expect(second.status == 200 && second.body == first.body)
        let ended = try await TestHTTPClient.request(.POST, port: server.port, path: "/sessions/\(session.code)/end",
                                                     headers: [("Authorization", "Bearer \(session.hostToken)")])
        #expect(ended.status == 200)
        try await waitUntil(within: .seconds(1)) { server.hub.session(code) == nil }
        #expect(server.hub.qrCodes.withLockedValue { $0.isEmpty })
        try await server.stop()
    }

    static let rasterizer = ExternalTool("rsvg-convert")
    static let decoder = ExternalTool("zbarimg")

    @Test("a real QR decoder reads the served SVG back as the join URL (rsvg-convert draws it, zbarimg reads it)",
          .enabled(if: rasterizer != nil, "rsvg-convert is not installed (Debian: librsvg2-bin)"),
          .enabled(if: decoder != nil, "zbarimg is not installed (Debian: zbar-tools)"))
    func realDecoderReadsIt() async throws {
        let server = try await HubTestServer.start(publicBaseURL: "https://pong.example")
        let session = try await server.hostSession()
        let created = try await server.call("POST", "/sessions", token: session.token,
                                            json: #"{"mode":"rally","pointsToWin":11}"#)
        let joinURL = try #require(created.body["joinURL"] as? String)
        let code = try #require(created.body["code"] as? String)
        let svg = try await TestHTTPClient.request(.GET, port: server.port, path: "/sessions/\(code)/qr.svg").body
        try await server.stop()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pongd-qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let svgFile = folder.appendingPathComponent("qr.svg").path, pngFile = folder.appendingPathComponent("qr.png").path
        try svg.write(toFile: svgFile, atomically: true, encoding: .utf8)
        let drawn = try #require(Self.rasterizer).run([svgFile, "-o", pngFile])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let read = try #require(Self.decoder).run(["--quiet", "--raw", pngFile])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.trimmingCharacters(in: .newlines) == joinURL)
        #expect(joinURL == "https://pong.example/join/\(code)")
    }
}
