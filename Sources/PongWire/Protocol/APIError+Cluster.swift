// The errors of pongd on several nodes (docs/SCALING.md): a session between owners, a database out of reach.

extension APIError {
    /// The session's owner node cannot be reached and no other node has taken it over yet (a failover or a planned
    /// handover in progress); `Retry-After` says when to try again.
    package static let sessionUnavailable = APIError(
        status: 503, code: "session_unavailable",
        message: "This session is moving to another server. Try again in a moment")
    /// The node cannot reach its database (PostgreSQL): nothing that must be stored first (a new seat, a new session,
    /// a new account) can be done; live sessions go on. `Retry-After` says when to try again.
    package static let storeUnavailable = APIError(
        status: 503, code: "store_unavailable",
        message: "The server cannot reach its database. Try again in a moment")
}
