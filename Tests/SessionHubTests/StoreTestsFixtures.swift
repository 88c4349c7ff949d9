import Foundation
import Logging
@testable import PongWire
import Testing
@testable import SessionHub

/// Records and folders shared by the store tests.
enum StoreFixture {
    /// Time zero, with a sub-millisecond part the store rounds away.
    static let t0 = Date(timeIntervalSince1970: 1_750_000_000.123_456)

    /// `t0` plus `seconds`.
    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    /// A session code from valid text.
    static func code(_ text: String) throws -> SessionCode { try #require(SessionCode(userInput: text)) }

    static func registered(_ id: String, email: String, name: String = "Ana") -> StoredUser {
        StoredUser(id: UserID(id), name: name, email: email, passwordHash: "$scrypt$ln=15,r=8,p=1$c2FsdA$aGFzaA",
                   isGuest: false, createdAt: t0)
    }

    static func guest(_ id: String) -> StoredUser { .guest(id: UserID(id), name: "Guest", createdAt: t0) }

    static func session(_ code: SessionCode, host: String, at seconds: Double = 0) -> StoredSession {
        StoredSession(code: code, hostUserId: UserID(host), game: GameSettings(mode: .rally, pointsToWin: .eleven),
                      createdAt: at(seconds))
    }

    static func seat(_ player: String, in code: SessionCode, user: String, at seconds: Double = 0) -> StoredMembership {
        StoredMembership(playerId: PlayerID(player), sessionCode: code, userId: UserID(user),
                         resumeToken: "resume-\(player)", joinedAt: at(seconds))
    }

    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46]
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00]
}

/// A folder path under the temporary directory that does not exist yet; removed with the value.
final class StoreTestsFolder {
    let path = FileManager.default.temporaryDirectory.path + "/pongd-store-test-" + UUID().uuidString

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The store backends the store tests run against: SQLite always, PostgreSQL where its binaries are installed
/// (`PostgresTestServer`; `PostgresStoreTests` says why it is skipped otherwise).
enum StoreBackend: String, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    /// SQLite, and PostgreSQL when it can run here.
    static let available: [StoreBackend] = PostgresTestServer.unavailable == nil ? [.sqlite, .postgres] : [.sqlite]

    var testDescription: String { rawValue }

    /// A logger that prints nothing (the migrations log at info).
    static let quiet = Logger(label: "test.store", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A new, empty, migrated store: a temporary SQLite folder, or a new schema on the tests' PostgreSQL server.
    func makeStore() throws -> any HubStore {
        switch self {
        case .sqlite:
            return try SessionStore.temporary()
        case .postgres:
            let server = try PostgresTestServer.shared.get()
            return try PostgresStore(url: try server.makeSchema(), logger: Self.quiet)
        }
    }
}
