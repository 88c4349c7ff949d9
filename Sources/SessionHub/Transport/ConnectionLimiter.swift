/// Open connections counted in total and per client address; a new one beyond either cap is refused. Pure: the
/// listener keeps it under a lock (`HTTPServer`), and so does a node for the calls it forwards (`ClusterNode`).
struct ConnectionLimiter: Sendable, Equatable {
    /// What to do with a connection just accepted.
    enum Admission: Equatable {
        /// Serve it (and call `closed` once it ends).
        case admit
        /// Close it at once: the server holds `maxConnections`.
        case refuseTotal
        /// Close it at once: its address holds `maxConnectionsPerAddress`.
        case refuseAddress
    }

    let maxTotal: Int
    let maxPerAddress: Int
    private(set) var total = 0
    private(set) var perAddress: [String: Int] = [:]

    init(maxTotal: Int, maxPerAddress: Int) {
        self.maxTotal = maxTotal
        self.maxPerAddress = maxPerAddress
    }

    /// A connection from `address` was accepted; counted only when admitted. `capped: false` (a trusted proxy) skips
    /// the per-address cap.
    mutating func opened(from address: String, capped: Bool = true) -> Admission {
        guard total < maxTotal else { return .refuseTotal }
        let held = perAddress[address, default: 0]
        guard held < maxPerAddress || !capped else { return .refuseAddress }
        total += 1
        perAddress[address] = held + 1
        return .admit
    }

    /// An admitted connection from `address` closed.
    mutating func closed(from address: String) {
        guard let held = perAddress[address] else { return }
        total -= 1
        perAddress[address] = held > 1 ? held - 1 : nil
    }
}
