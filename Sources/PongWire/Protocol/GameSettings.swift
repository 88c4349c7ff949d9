/// The host's game choices, as the lobby shows them (`game {mode, pointsToWin, serveRule}`).
package struct GameSettings: Codable, Hashable, Sendable {
    /// Rally or full game.
    package var mode: GameMode
    /// 11 or 21.
    package var pointsToWin: PointsToWin
    /// Who serves; `standard` when the host did not choose.
    package var serveRule: ServeRule

    package init(mode: GameMode, pointsToWin: PointsToWin, serveRule: ServeRule = .standard) {
        self.mode = mode
        self.pointsToWin = pointsToWin
        self.serveRule = serveRule
    }
}
