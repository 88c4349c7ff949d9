/// Why a `SessionStore` call failed.
///
/// Compare with the static members (`error == .duplicateEmail`); equality looks at the kind only, `detail` is the
/// underlying SQLite or file-system text for logs (never shown to a phone).
package struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: String, Hashable, Sendable {
        case duplicateEmail, duplicateKey, notFound, constraint, invalidState, corruptData, io
    }

    private let code: Code
    /// Underlying message for logs; not part of equality.
    package let detail: String

    private init(_ code: Code, detail: String = "") {
        self.code = code
        self.detail = detail
    }

    /// Another user already has this email address (compared case-insensitively).
    package static let duplicateEmail = StoreError(.duplicateEmail)
    /// A row with this key (user or photo id, session code, player id, resume token) is already stored.
    package static let duplicateKey = StoreError(.duplicateKey)
    /// The row to change does not exist.
    package static let notFound = StoreError(.notFound)
    /// A foreign key (a user, session, photo or player that does not exist), a check or a NOT NULL rule refused
    /// the write.
    package static let constraint = StoreError(.constraint)
    /// The change does not fit the row's state (an ended session is final; only ended sessions are purged).
    package static let invalidState = StoreError(.invalidState)
    /// A stored value cannot be read as its type (a code or enum value no longer valid).
    package static let corruptData = StoreError(.corruptData)
    /// Opening, reading or writing the database failed (disk, permissions, a closed store, SQLite itself).
    package static let io = StoreError(.io)

    /// The same kind of error with `detail` for the log.
    package func with(detail: String) -> StoreError { StoreError(code, detail: detail) }

    package static func == (lhs: StoreError, rhs: StoreError) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }

    package var description: String {
        detail.isEmpty ? "StoreError.\(code.rawValue)" : "StoreError.\(code.rawValue): \(detail)"
    }
}
