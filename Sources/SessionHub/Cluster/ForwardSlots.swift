/// The forwarding slots of a node (`HubRouter.forward`): at most `total` calls open at once, and at most `perAddress`
/// of them for one client address, so one address cannot take every slot from the others. Pure; `ClusterNode`
/// keeps it under a lock.
struct ForwardSlots: Sendable, Equatable {
    /// Most calls open at once (`ClusterConfiguration.maxForwards`).
    let total: Int
    /// Most calls open at once for one client address (`ClusterConfiguration.maxForwardsPerAddress`).
    let perAddress: Int
    /// Calls open now.
    private(set) var open = 0
    /// Calls open now per client address (an address with none is absent).
    private(set) var byAddress: [String: Int] = [:]

    init(total: Int, perAddress: Int) {
        self.total = total
        self.perAddress = perAddress
    }

    /// Takes a slot for a call from `address`; false (nothing taken) when every slot, or the address's share, is
    /// taken.
    mutating func take(for address: String) -> Bool {
        let held = byAddress[address, default: 0]
        guard open < total, held < perAddress else { return false }
        open += 1
        byAddress[address] = held + 1
        return true
    }

    /// Gives back a slot `take(for:)` took for `address`.
    mutating func giveBack(for address: String) {
        guard let held = byAddress[address] else { return }
        open -= 1
        byAddress[address] = held > 1 ? held - 1 : nil
    }
}
