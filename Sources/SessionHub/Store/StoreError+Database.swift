import GRDB

extension StoreError {
    /// The store's error for anything a GRDB call threw: constraint failures by kind, everything else `.io`.
    init(_ error: any Error) {
        if let error = error as? StoreError {
            self = error
            return
        }
        guard let error = error as? DatabaseError else {
            if error is RowDecodingError {
                self = StoreError.corruptData.with(detail: "\(error)")
            } else {
                self = StoreError.io.with(detail: "\(error)")
            }
            return
        }
        let detail = error.message ?? "SQLite error \(error.extendedResultCode.rawValue)"
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_UNIQUE where detail.contains("user.email"):
            self = StoreError.duplicateEmail.with(detail: detail)
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY:
            self = StoreError.duplicateKey.with(detail: detail)
        case _ where error.resultCode == .SQLITE_CONSTRAINT:
            self = StoreError.constraint.with(detail: detail)
        default:
            self = StoreError.io.with(detail: detail)
        }
    }
}
