import PongWire

/// `GET /sessions/{code}/qr.svg`: the session's join URL as a QR code, for the host to show.
extension HubRouter {
    /// Seconds a browser or cache may keep a QR image: the image of a code never changes (a code's join URL is
    /// fixed while `--public-url` is), so an hour is safe.
    static let qrCodeMaxAge = 3600

    /// Answers with the SVG of the live session's `joinURL`. A malformed code is 400 `invalid_session_code`; an
    /// unknown or ended one is looked up like every code (`SessionHub.lookUp`): 404 `session_not_found`, counted
    /// in the address's failed-lookup budget, 429 once it is spent. A bearer token is optional (an `<img>` sends
    /// none); with the host's or a seated player's, a spent address is let through as for the lobby.
    func qrCode(code text: String, request: HTTPRequest, reply: Reply) {
        guard let code = SessionCode(userInput: text) else { return reply.send(.error(.invalidSessionCode)) }
        let user: UserID?
        do throws(APIError) { user = try optionalCaller(request) } catch { return reply.send(.error(error)) }
        hub.lookUp(text, from: request.remoteAddress, user: user) { lookup in
            guard case .live = lookup else { return refuse(lookup, request, reply) }
            if let svg = hub.qrCodes.withLockedValue({ $0[code] }) { return reply.send(Self.qrCodeResponse(svg: svg)) }
            let url = hub.joinURL(for: code)
            // Encoding takes ~150 µs: off the event loop, once per live session (kept until it is forgotten).
            hub.worker.async {
                // nil only for a `--public-url` of thousands of bytes.
                guard let symbol = QRCode(encoding: url, errorCorrection: .medium) else {
                    return reply.send(.error(.internal))
                }
                let svg = Array(symbol.svg().utf8)
                hub.qrCodes.withLockedValue { $0[code] = svg }
                // Forgotten meanwhile: not kept (the cache holds live sessions only).
                if hub.session(code) == nil { hub.qrCodes.withLockedValue { _ = $0.removeValue(forKey: code) } }
                reply.send(Self.qrCodeResponse(svg: svg))
            }
        }
    }

    /// 200 with a QR code's SVG (`url`'s, level M, a 4-module quiet zone), `image/svg+xml`.
    static func qrCodeResponse(svg: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: 200, contentType: "image/svg+xml", body: svg,
                            headers: [("Cache-Control", "public, max-age=\(qrCodeMaxAge)"),
                                      ("Content-Security-Policy", photoContentSecurityPolicy)])
    }
}

extension SessionHub {
    /// The link a session's QR code carries and `POST /sessions` answers: `{--public-url}/join/{CODE}`.
    func joinURL(for code: SessionCode) -> String {
        "\(configuration.publicBaseURL)/join/\(code.value)"
    }
}
