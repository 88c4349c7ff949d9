import PongWire

/// Open WebSockets per user, so one account cannot hold hundreds (docs/SECURITY.md). Pure; the hub keeps it under a
/// lock.
struct UserSocketCounter: Sendable, Equatable {
    /// Sockets one user may hold at once.
    let maxPerUser: Int
    private(set) var byUser: [UserID: Int] = [:]
    private var owners: [UInt64: UserID] = [:]

    init(maxPerUser: Int) {
        self.maxPerUser = maxPerUser
    }

    /// Socket `id` of `user` opened: false (and not counted) when the user already holds `maxPerUser`. A socket
    /// counted already (while its session was located) is not counted again: true.
    mutating func opened(_ id: UInt64, user: UserID) -> Bool {
        guard owners[id] == nil else { return true }
        let held = byUser[user, default: 0]
        guard held < maxPerUser else { return false }
        byUser[user] = held + 1
        owners[id] = user
        return true
    }

    /// Socket `id` closed (nothing happens for one that was not counted).
    mutating func closed(_ id: UInt64) {
        guard let user = owners.removeValue(forKey: id), let held = byUser[user] else { return }
        byUser[user] = held > 1 ? held - 1 : nil
    }
}
