/// CORS for the allowed web origins (`OriginPolicy`), and the security headers of every answer.
extension HubRouter {
    /// Methods and request headers a page of an allowed origin may use.
    static let corsMethods = "GET, POST, OPTIONS"
    static let corsRequestHeaders = "Authorization, Content-Type"
    /// Seconds a browser may cache a preflight answer.
    static let corsMaxAge = 600

    /// The headers every answer to a request from `origin` carries (only called once `origin` is allowed): the
    /// origin itself, `Vary: Origin`, and `Retry-After` readable by the page. Without an origin only `Vary: Origin`,
    /// so a shared cache never hands one origin's answer (a photo) to another.
    func corsHeaders(origin: String?) -> [(String, String)] {
        guard let origin, !origin.isEmpty else { return [("Vary", "Origin")] }
        return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin"),
                ("Access-Control-Expose-Headers", "Retry-After")]
    }

    /// The CORS headers of the transport's own answers (a 413 while a body streams in): those of a routed answer
    /// when the origin is allowed, none otherwise (a refused origin's page then cannot read it, as for any answer).
    package func transportHeaders(origin: String?, host: String?) -> [(String, String)] {
        hub.origins.allows(origin: origin, host: host) ? corsHeaders(origin: origin) : []
    }

    /// The answer to `OPTIONS` (a CORS preflight, the origin already checked): 204 with the methods and headers
    /// allowed. Without an `Origin` it is a plain 204 with `Allow`.
    func preflight(origin: String?) -> HTTPResponse {
        var response = HTTPResponse(status: 204, contentType: "text/plain; charset=utf-8", body: [],
                                    headers: [("Allow", Self.corsMethods)])
        if origin != nil {
            response.headers += [("Access-Control-Allow-Methods", Self.corsMethods),
                                 ("Access-Control-Allow-Headers", Self.corsRequestHeaders),
                                 ("Access-Control-Max-Age", "\(Self.corsMaxAge)")]
        }
        return response
    }
}

extension HTTPResponse {
    /// This response with `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer`, and
    /// `Cache-Control: no-store` on JSON that says nothing else about caching.
    func withSecurityHeaders() -> HTTPResponse {
        var response = self
        response.headers.append(("X-Content-Type-Options", "nosniff"))
        response.headers.append(("Referrer-Policy", "no-referrer"))
        let hasCacheControl = headers.contains { $0.0.lowercased() == "cache-control" }
        if contentType.hasPrefix("application/json"), !hasCacheControl {
            response.headers.append(("Cache-Control", "no-store"))
        }
        return response
    }
}
