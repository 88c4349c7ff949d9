import PongWire

/// The quotas' checks on the router's paths (docs/SECURITY.md, "Quotas").
extension HubRouter {
    /// A fresh code claimed for a session `host` creates, in O(1) however many sessions are live: 429
    /// `too_many_sessions` when `host` already hosts `maxLiveSessionsPerUser` live sessions.
    func reserveCode(host: UserID) throws(APIError) -> SessionCode {
        let limit = hub.quotas.limits.maxLiveSessionsPerUser
        for _ in 0..<64 {
            guard let code = hub.configuration.drawCode() else { break }
            switch hub.quotas.userSessions.withLockedValue({ $0.reserve(code, host: host, limit: limit) }) {
            case .reserved: return code
            case .codeTaken: continue
            case .tooManySessions:
                hub.logger.info("sessions limited", metadata: ["user.id": "\(host)"])
                throw .tooManySessions
            }
        }
        throw .internal
    }
}
