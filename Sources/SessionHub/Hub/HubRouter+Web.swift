import Foundation

/// The web client's routes (docs/WEB.md): `GET /`, `GET /join/{code}` and `GET /auth/callback` (the player's page;
/// the last is where social sign-in's providers send the person back), `GET /host` (the host's), and
/// `GET /assets/{name}`; `HEAD` too. Files come from memory (`WebAssets`), named by one plain path
/// segment, so no path can reach outside them.
extension HubRouter {
    /// What the pages may load and run: their own scripts, styles, images (and photos or camera stills as `data:`
    /// and `blob:` URLs), the camera preview, HTTP and WebSocket calls to this origin, and WebSockets to
    /// `socketOrigins` (on several nodes a page served by one opens its socket on the session's owner: the
    /// `--allowed-origin`s, where docs/SCALING.md lists every node, and this node's own `--node-url`); nothing inline,
    /// no frames, no plugins, no other origin.
    static func pageContentSecurityPolicy(socketOrigins: Set<String> = []) -> String {
        let sockets = socketOrigins.compactMap(OriginPolicy.origin(of:)).map { origin in
            origin.hasPrefix("https://") ? "wss://" + origin.dropFirst(8) : "ws://" + origin.dropFirst(7)
        }
        return [
            "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:",
            "media-src 'self' blob:", (["connect-src 'self'"] + Set(sockets).sorted()).joined(separator: " "),
            "manifest-src 'self'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    /// The answer to a web client path, or nil when `segments` is no such path (the API routes then).
    func webResponse(_ request: HTTPRequest, segments: [String]) -> HTTPResponse? {
        let file: WebAssets.File?
        switch (segments.first ?? "", segments.count) {
        case ("", 0), ("join", 2): file = hub.web.pages["index.html"]
        case ("auth", 2) where segments[1] == "callback": file = hub.web.pages["index.html"]
        case ("host", 1): file = hub.web.pages["host.html"]
        case ("assets", 2): file = hub.web.assets[segments[1]]
        default: return nil
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return .error(.methodNotAllowed(request.method))
        }
        guard let file else { return .error(.notFound(request.path)) }
        let headers = [("ETag", file.etag), ("Cache-Control", "no-cache"),
                       ("Content-Security-Policy", hub.pageContentSecurityPolicy),
                       ("Cross-Origin-Opener-Policy", "same-origin"),
                       ("Permissions-Policy", "camera=(self), microphone=(self), geolocation=()")]
        if let tags = request.headers["if-none-match"],
            tags.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == file.etag })
        {
            return HTTPResponse(status: 304, contentType: file.contentType, body: [], headers: headers)
        }
        return HTTPResponse(status: 200, contentType: file.contentType, body: file.bytes, headers: headers)
    }
}
