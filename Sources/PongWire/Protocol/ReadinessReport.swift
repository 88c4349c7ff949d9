/// `readiness {canBeReady, checks: [{id, status, message}]}`: the server's verdict; the phone only displays it.
package struct ReadinessReport: Codable, Hashable, Sendable {
    /// One rule and how the player stands with it.
    package struct Check: Codable, Hashable, Sendable {
        /// The rule's stable identifier.
        package var id: CheckID
        /// `ok`, `warn` (allowed) or `fail` (blocks `ready`).
        package var status: CheckStatus
        /// Text the phone shows beside the rule.
        package var message: String

        package init(id: CheckID, status: CheckStatus, message: String) {
            self.id = id
            self.status = status
            self.message = message
        }
    }

    /// Identifiers of the readiness rules, in the order `checks` lists them.
    package enum CheckID: String, Codable, Sendable, CaseIterable {
        case profile, camera, microphone, connection, latency, battery
    }

    /// True when no check fails.
    package var canBeReady: Bool
    /// Every rule, in `CheckID` order.
    package var checks: [Check]

    /// A report over `checks`; `canBeReady` is derived from them.
    package init(checks: [Check]) {
        self.checks = checks
        self.canBeReady = !checks.contains { $0.status == .fail }
    }

    /// The check with this id, if listed.
    package func check(_ id: CheckID) -> Check? {
        checks.first { $0.id == id }
    }
}
