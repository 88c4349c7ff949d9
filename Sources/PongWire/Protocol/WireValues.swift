// The small enumerations of the wire contract (DESIGN.md, Contract). Raw values are the exact JSON strings/numbers.

/// A phone's camera or microphone permission, as `permissions {camera, microphone}` reports it.
package enum PermissionStatus: String, Codable, Sendable, CaseIterable {
    case granted, denied, pending
}

/// Video quality the player picked on the stream setup screen.
package enum VideoQuality: String, Codable, Sendable, CaseIterable {
    case p720 = "720p"
    case p1080 = "1080p"
    case auto
}

/// Frame rate the player picked on the stream setup screen.
package enum FrameRate: Int, Codable, Sendable, CaseIterable {
    case fps30 = 30
    case fps60 = 60
    case fps120 = 120
}

/// One media track's state in the lobby (`stream.video`, `stream.audio`); `off` also means "joined without it".
package enum MediaState: String, Codable, Sendable, CaseIterable {
    case off, starting, live, failed
}

/// State of a `stream` report (a stream is never reported as `off`).
package enum StreamState: String, Codable, Sendable, CaseIterable {
    case starting, live, failed
}

/// Which track of a player's stream.
package enum MediaKind: String, Codable, Sendable, CaseIterable {
    case video, audio
}

/// Upload bandwidth grade: good > 5 Mbps, fair 2–5, poor < 2.
package enum ConnectionGrade: String, Codable, Sendable, CaseIterable {
    case good, fair, poor

    /// Order of the grades: poor 0, fair 1, good 2.
    package var rank: Int {
        switch self {
        case .poor: 0
        case .fair: 1
        case .good: 2
        }
    }

    /// The grade of a measured upload rate (5 Mbps exactly is fair, 2 Mbps exactly is fair).
    package init(uploadMbps: Double) {
        if uploadMbps > 5 {
            self = .good
        } else if uploadMbps >= 2 {
            self = .fair
        } else {
            self = .poor
        }
    }
}

/// Whether a seated player's socket is up (`lobby.players[].connection`).
package enum ConnectionStatus: String, Codable, Sendable, CaseIterable {
    case connected, reconnecting
}

/// Session state in the lobby snapshot.
package enum SessionPhase: String, Codable, Sendable, CaseIterable {
    case waiting, playing, ended
}

/// Game mode the host chose.
package enum GameMode: String, Codable, Sendable, CaseIterable {
    case rally, fullGame
}

/// Points to win a game.
package enum PointsToWin: Int, Codable, Sendable, CaseIterable {
    case eleven = 11
    case twentyOne = 21
}

/// Who serves: `standard` is the table-tennis rule (2 serves each to 11, 5 each to 21, alternating every point
/// at deuce); `winnerServes` gives the serve to the winner of the last rally.
package enum ServeRule: String, Codable, Sendable, CaseIterable {
    case standard, winnerServes
}

/// What the detector heard (`bounce.kind`).
package enum BounceKind: String, Codable, Sendable, CaseIterable {
    case table, racket, unknown
}

/// Status of one readiness check.
package enum CheckStatus: String, Codable, Sendable, CaseIterable {
    case ok, warn, fail
}

/// Why a session ended (`sessionEnded.reason`).
package enum SessionEndReason: String, Codable, Sendable, CaseIterable {
    /// The host ended it (`POST /sessions/{code}/end`).
    case hostEnded
    /// Nothing happened in it for the idle time (default 2 h).
    case idleExpired
}

/// Video codec of `POST /streams/start`.
package enum VideoCodec: String, Codable, Sendable, CaseIterable {
    case h264, vp8
}

/// Audio codec of `POST /streams/start`.
package enum AudioCodec: String, Codable, Sendable, CaseIterable {
    case opus, aac
}
