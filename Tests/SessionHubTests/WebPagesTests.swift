import Foundation
import Testing
@testable import SessionHub

/// The web client's files as `pongd serve` ships them (docs/WEB.md): routes, headers, caching, and no way out of
/// the folder.
@Suite("Web pages", .serialized, .timeLimit(.minutes(1)))
struct WebPagesTests {
    @Test("/, /join/{code}, /auth/callback and /host are the pages: HTML, a strict CSP, nosniff, an ETag, no-cache")
    func pages() async throws {
        let server = try await HubTestServer.start()
        for (path, hook) in [("/", "code-input"), ("/join/ABC234", "code-input"), ("/auth/callback", "code-input"),
                             ("/host", "host-create")] {
            let page = try await TestHTTPClient.request(.GET, port: server.port, path: path)
            #expect(page.status == 200, "\(path)")
            #expect(page.headers["content-type"].first == "text/html; charset=utf-8")
            #expect(page.body.contains("data-test=\"\(hook)\""), "\(path)")
            let policy = try #require(page.headers["content-security-policy"].first)
            #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'")
                && policy.contains("connect-src 'self'") && policy.contains("frame-ancestors 'none'"))
            #expect(!policy.contains("unsafe"))
            #expect(page.headers["x-content-type-options"].first == "nosniff")
            #expect(page.headers["referrer-policy"].first == "no-referrer")
            #expect(page.headers["cache-control"].first == "no-cache")
            #expect(page.headers["etag"].first?.hasPrefix("\"") == true)
        }
        try await server.stop()
    }

    @Test("with --allowed-origin (the other nodes) the pages may open WebSockets there too: connect-src lists them as ws(s)")
    func otherNodesInConnectSource() async throws {
        #expect(!HubRouter.pageContentSecurityPolicy().contains("ws"))
        let server = try await HubTestServer.start(allowedOrigins: ["http://10.0.0.2:8082", "https://Node3.example:443/"])
        let page = try await TestHTTPClient.request(.GET, port: server.port, path: "/join/ABC234")
        let policy = try #require(page.headers["content-security-policy"].first)
        #expect(policy.contains("; connect-src 'self' ws://10.0.0.2:8082 wss://node3.example; "), "\(policy)")
        #expect(!policy.contains("unsafe"))
        try await server.stop()
    }

    @Test("assets have their content types; an unchanged one is 304 with its ETag; HEAD has no body")
    func assets() async throws {
        let server = try await HubTestServer.start()
        let script = try await TestHTTPClient.request(.GET, port: server.port, path: "/assets/player.js")
        #expect(script.status == 200)
        #expect(script.headers["content-type"].first == "text/javascript; charset=utf-8")
        let style = try await TestHTTPClient.request(.GET, port: server.port, path: "/assets/app.css")
        #expect(style.headers["content-type"].first == "text/css; charset=utf-8")
        let tag = try #require(script.headers["etag"].first)
        let again = try await TestHTTPClient.request(.GET, port: server.port, path: "/assets/player.js",
                                                     headers: [("If-None-Match", tag)])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        let changed = try await TestHTTPClient.request(.GET, port: server.port, path: "/assets/player.js",
                                                       headers: [("If-None-Match", "\"other\"")])
        #expect(changed.status == 200)
        let head = try await TestHTTPClient.request(.HEAD, port: server.port, path: "/")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        let post = try await TestHTTPClient.request(.POST, port: server.port, path: "/", body: "{}")
        #expect(post.status == 405)
        try await server.stop()
    }

    @Test("unknown assets and every way out of the folder are 404", arguments: [
        "/assets/nope.js", "/assets/../Package.swift", "/assets/..%2f..%2fPackage.swift", "/assets/%2e%2e",
        "/assets/..", "/assets/.", "/assets/WebAssets.swift", "/assets/PLAYER.JS", "/assets/player.js/x",
        "/assets//etc/passwd", "/join/../../etc/passwd", "/index.html", "/host.html", "/assets/",
        "/WebPages/index.html", "/host/x",
    ])
    func noWayOut(path: String) async throws {
        let server = try await HubTestServer.start()
        let response = try await TestHTTPClient.request(.GET, port: server.port, path: path)
        #expect(response.status == 404, "\(path): \(response.status)")
        #expect(response.body.contains("not_found"))
        try await server.stop()
    }

    @Test("only plain names of known types are loaded: no hidden files, capitals, links or folders")
    func loading() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("web-\(UUID().uuidString)")
        let assets = folder.appendingPathComponent("assets")
        try FileManager.default.createDirectory(at: assets.appendingPathComponent("sub.js"),
                                                withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<p>".utf8).write(to: folder.appendingPathComponent("index.html"))
        for name in ["ok.js", "Evil.js", ".env.js", "notes.txt", "a b.js"] {
            try Data("x".utf8).write(to: assets.appendingPathComponent(name))
        }
        try FileManager.default.createSymbolicLink(atPath: assets.appendingPathComponent("link.js").path,
                                                   withDestinationPath: "/etc/hostname")
        let web = try WebAssets(folder: folder)
        #expect(Set(web.assets.keys) == ["ok.js"])
        #expect(Set(web.pages.keys) == ["index.html"])
    }

    @Test("the pages load only files that exist, and hold nothing inline that the CSP would block")
    func builtInFilesHangTogether() throws {
        let web = try WebAssets.builtIn()
        #expect(web.pages["index.html"] != nil && web.pages["host.html"] != nil)
        let texts = (web.pages.merging(web.assets) { page, _ in page })
            .filter { $0.value.contentType.hasPrefix("text/") }
            .mapValues { String(decoding: $0.bytes, as: UTF8.self) }
        let reference = try Regex(#"(?:src|href)="/assets/([^"]+)"|from "\./([^"]+)"|import\("\./([^"]+)"\)"#)
        for (name, text) in texts {
            for match in text.matches(of: reference) {
                let target = match.output.dropFirst().compactMap { $0.substring }.first.map(String.init) ?? ""
                #expect(web.assets[target] != nil, "\(name) refers to a missing asset \(target)")
            }
            guard name.hasSuffix(".html") else { continue }
            #expect(!text.contains("<script>") && !text.contains("style=\""), "\(name): inline script or style")
            #expect(text.firstMatch(of: try Regex(#"\son[a-z]+="#)) == nil, "\(name): an inline event handler")
        }
    }
}
