import PostgresNIO

extension StoreError {
    /// The store's error for anything a PostgreSQL call threw, by SQLSTATE: unique violations as
    /// `.duplicateEmail` (the email index) or `.duplicateKey`, other integrity violations and values the column type
    /// refuses (JSON that is not JSON) as `.constraint`, everything else (connection, server, protocol) `.io`.
    init(postgres error: any Error) {
        if let error = error as? StoreError {
            self = error
            return
        }
        guard let error = error as? PSQLError else {
            self = StoreError.io.with(detail: "\(error)")
            return
        }
        guard let info = error.serverInfo, let state = info[.sqlState] else {
            self = StoreError.io.with(detail: "PostgreSQL \(error.code)" + (error.underlying.map { ": \($0)" } ?? ""))
            return
        }
        let constraint = info[.constraintName] ?? ""
        let detail = "\(info[.message] ?? "PostgreSQL error") (SQLSTATE \(state)"
            + (constraint.isEmpty ? ")" : ", constraint \(constraint))")
        switch state {
        case "23505" where constraint == PostgresStore.emailIndex:
            self = StoreError.duplicateEmail.with(detail: detail)
        case "23505":
            self = StoreError.duplicateKey.with(detail: detail)
        case _ where state.hasPrefix("23") || state.hasPrefix("22"):
            // 23: integrity (foreign key, check, not null); 22: data (a JSON column given text that is not JSON).
            self = StoreError.constraint.with(detail: detail)
        default:
            self = StoreError.io.with(detail: detail)
        }
    }
}
