/// `POST /sessions` body: `{mode, pointsToWin, serveRule?}`.
package struct CreateSessionRequest: Codable, Hashable, Sendable {
    /// `"rally"` or `"fullGame"`.
    package var mode: GameMode
    /// 11 or 21.
    package var pointsToWin: PointsToWin
    /// `"standard"` (when absent) or `"winnerServes"`.
    package var serveRule: ServeRule?

    package init(mode: GameMode, pointsToWin: PointsToWin, serveRule: ServeRule? = nil) {
        self.mode = mode
        self.pointsToWin = pointsToWin
        self.serveRule = serveRule
    }

    private enum CodingKeys: String, CodingKey { case mode, pointsToWin, serveRule }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mode = try container.decodeField(GameMode.self, forKey: .mode)
        pointsToWin = try container.decodeField(PointsToWin.self, forKey: .pointsToWin)
        serveRule = try container.decodeFieldIfPresent(ServeRule.self, forKey: .serveRule)
    }

    /// The settings the session starts with.
    package var settings: GameSettings {
        GameSettings(mode: mode, pointsToWin: pointsToWin, serveRule: serveRule ?? .standard)
    }
}

/// `POST /sessions` answer (201): `{code, displayCode, joinURL, hostToken}`.
package struct CreateSessionResponse: Codable, Hashable, Sendable {
    /// Canonical code, `"ABC234"`.
    package var code: String
    /// Code as shown, `"ABC-234"`.
    package var displayCode: String
    /// The URL a QR code carries.
    package var joinURL: String
    /// Token of the dashboard WebSocket (`…/dashboard?token=`).
    package var hostToken: String

    package init(code: String, displayCode: String, joinURL: String, hostToken: String) {
        self.code = code
        self.displayCode = displayCode
        self.joinURL = joinURL
        self.hostToken = hostToken
    }
}

/// `POST /sessions/{code}/join` answer (200): `{playerId, websocketURL, resumeToken}`.
package struct JoinResponse: Codable, Hashable, Sendable {
    /// The seat.
    package var playerId: PlayerID
    /// The path `/sessions/{code}/player/{userId}`; the phone adds `?token=`.
    package var websocketURL: String
    /// Send in `hello` to resume the seat.
    package var resumeToken: String

    package init(playerId: PlayerID, websocketURL: String, resumeToken: String) {
        self.playerId = playerId
        self.websocketURL = websocketURL
        self.resumeToken = resumeToken
    }
}
