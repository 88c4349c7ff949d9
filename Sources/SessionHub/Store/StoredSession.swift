#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import PongWire

/// A row of `session`: one game session's settings and life cycle.
package struct StoredSession: Hashable, Sendable {
    /// Primary key: the join code. A code stays taken while its row exists, ended or not.
    package var code: SessionCode
    /// The creator; nil once a guest host's data was purged.
    package var hostUserId: UserID?
    /// Rally or full game.
    package var mode: GameMode
    /// 11 or 21.
    package var pointsToWin: PointsToWin
    /// The host's choice, nil when the host did not choose.
    package var serveRule: ServeRule?
    /// `waiting`, `playing` or `ended` (final).
    package var state: SessionPhase
    /// Creation time (milliseconds).
    package var createdAt: Date
    /// Last event in the session; idle expiry compares against it.
    package var lastActivityAt: Date
    /// When it ended.
    package var endedAt: Date?

    package init(code: SessionCode, hostUserId: UserID?, mode: GameMode, pointsToWin: PointsToWin,
                 serveRule: ServeRule? = nil, state: SessionPhase = .waiting, createdAt: Date,
                 lastActivityAt: Date? = nil, endedAt: Date? = nil) {
        self.code = code
        self.hostUserId = hostUserId
        self.mode = mode
        self.pointsToWin = pointsToWin
        self.serveRule = serveRule
        self.state = state
        self.createdAt = StoreTime.rounded(createdAt)
        self.lastActivityAt = StoreTime.rounded(lastActivityAt ?? createdAt)
        self.endedAt = endedAt.map(StoreTime.rounded)
    }

    /// A new waiting session with the host's game choices.
    package init(code: SessionCode, hostUserId: UserID, game: GameSettings, createdAt: Date) {
        self.init(code: code, hostUserId: hostUserId, mode: game.mode, pointsToWin: game.pointsToWin,
                  serveRule: game.serveRule, createdAt: createdAt)
    }

    /// The settings as the lobby shows them (`standard` serve rule when none was chosen).
    package var game: GameSettings {
        GameSettings(mode: mode, pointsToWin: pointsToWin, serveRule: serveRule ?? .standard)
    }
}

extension StoredSession {
    static let columns = "code, hostUserId, mode, pointsToWin, serveRule, state, createdAt, lastActivityAt, endedAt"

    init(row: Row) throws(StoreError) {
        code = try row.sessionCode("code")
        hostUserId = (try row.value("hostUserId") as String?).map(UserID.init)
        mode = try row.enumeration("mode")
        pointsToWin = try row.enumeration("pointsToWin")
        let rule: String? = try row.value("serveRule")
        if let rule {
            guard let parsed = ServeRule(rawValue: rule) else {
                throw StoreError.corruptData.with(detail: "column serveRule: unknown value \(rule)")
            }
            serveRule = parsed
        } else {
            serveRule = nil
        }
        state = try row.enumeration("state")
        createdAt = try row.date("createdAt")
        lastActivityAt = try row.date("lastActivityAt")
        endedAt = try row.optionalDate("endedAt")
    }

    var arguments: StatementArguments {
        [code.value, hostUserId?.rawValue, mode.rawValue, pointsToWin.rawValue, serveRule?.rawValue, state.rawValue,
         StoreTime.milliseconds(createdAt), StoreTime.milliseconds(lastActivityAt),
         endedAt.map(StoreTime.milliseconds)]
    }
}
