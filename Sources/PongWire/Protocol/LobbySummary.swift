/// What `GET /sessions/{code}` shows anyone but the session's host and seated players: enough for a phone to say
/// "Rally to 11, 3 players waiting" before it joins, and no names, photos or player ids.
package struct LobbySummary: Codable, Hashable, Sendable {
    /// Canonical code, e.g. `"ABC234"`.
    package var code: String
    /// Code as shown, e.g. `"ABC-234"`.
    package var displayCode: String
    /// `waiting`, `playing` or `ended`.
    package var state: SessionPhase
    /// The game settings.
    package var game: GameSettings
    /// Seats taken.
    package var playerCount: Int

    package init(code: String, displayCode: String, state: SessionPhase, game: GameSettings, playerCount: Int) {
        self.code = code
        self.displayCode = displayCode
        self.state = state
        self.game = game
        self.playerCount = playerCount
    }
}
