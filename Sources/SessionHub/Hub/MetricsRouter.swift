/// The metrics listener's routes (`pongd serve --metrics-port`, on 127.0.0.1 by default): `GET /metrics` as
/// Prometheus text, and `/healthz`. The public listener does not serve metrics.
package struct MetricsRouter: HTTPRouting {
    let metrics: HubMetrics

    package func respond(to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void) {
        let response: HTTPResponse = switch (request.method, request.path) {
        case ("GET", "/metrics"):
            HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8",
                         body: metrics.exposition(), headers: [("Cache-Control", "no-store")])
        case ("GET", "/healthz"), ("HEAD", "/healthz"):
            .json(200, #"{"status":"ok"}"#)
        case (_, "/metrics"), (_, "/healthz"):
            .error(.methodNotAllowed(request.method))
        default:
            .error(.notFound(request.path))
        }
        completion(response.withSecurityHeaders())
    }
}
