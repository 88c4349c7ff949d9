import PongWire

/// Which live sessions each user is in (as host or seat holder) and how many each hosts, so that no request has to
/// look at every live session: a profile update reaches only its user's sessions, and `POST /sessions` counts the
/// host's live sessions and checks a new code in O(1). Pure.
///
/// A user stays listed in a session after leaving its seat (a superset is harmless: the session ignores users
/// without a seat) until the session is removed.
package struct UserSessionIndex: Sendable {
    private var byUser: [UserID: Set<SessionCode>] = [:]
    private var members: [SessionCode: Set<UserID>] = [:]
    private var hosts: [SessionCode: UserID] = [:]
    private var hostedCount: [UserID: Int] = [:]

    /// What `reserve` decided.
    package enum Reservation: Equatable, Sendable {
        /// The code is the user's new session.
        case reserved
        /// Another live session has the code: draw another.
        case codeTaken
        /// The user already hosts `limit` live sessions.
        case tooManySessions
    }

    package init() {}

    /// Claims `code` for a new session hosted by `host`, unless the code is live or `host` already hosts `limit`
    /// live sessions. `remove(code)` gives the claim back (the session ended, or could not be created).
    package mutating func reserve(_ code: SessionCode, host: UserID, limit: Int) -> Reservation {
        guard hosts[code] == nil else { return .codeTaken }
        guard hostedCount[host, default: 0] < limit else { return .tooManySessions }
        add(host: host, of: code)
        return .reserved
    }

    /// Records `host` as the host of the live session `code` (no limit: a restored session); idempotent.
    package mutating func add(host: UserID, of code: SessionCode) {
        if hosts[code] == nil {
            hosts[code] = host
            hostedCount[host, default: 0] += 1
        }
        add(member: host, of: code)
    }

    /// Records that `user` took a seat in the live session `code`; idempotent.
    package mutating func add(member user: UserID, of code: SessionCode) {
        members[code, default: []].insert(user)
        byUser[user, default: []].insert(code)
    }

    /// Forgets the session `code` (it ended): O(its users).
    package mutating func remove(_ code: SessionCode) {
        if let host = hosts.removeValue(forKey: code) {
            let count = hostedCount[host, default: 1] - 1
            hostedCount[host] = count > 0 ? count : nil
        }
        for user in members.removeValue(forKey: code) ?? [] {
            byUser[user]?.remove(code)
            if byUser[user]?.isEmpty == true { byUser[user] = nil }
        }
    }

    /// The live sessions `user` hosts or took a seat in.
    package func sessions(of user: UserID) -> Set<SessionCode> {
        byUser[user] ?? []
    }

    /// How many live sessions `user` hosts.
    package func hosted(by user: UserID) -> Int {
        hostedCount[user, default: 0]
    }

    /// Whether a live session has `code`.
    package func isLive(_ code: SessionCode) -> Bool {
        hosts[code] != nil
    }

    /// Users listed over all sessions (for tests: the index never outgrows the live sessions).
    package var trackedUsers: Int { byUser.count }
}
