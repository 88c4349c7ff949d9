/// How a run spreads its HTTP calls over several `--server` nodes (the index of a node in the `--server` list):
/// session *i*'s host (sign-in, create, start, end) uses node *i* mod *N*; its phones take the nodes in turn from
/// there, seat *s* using node (*i* + *s*) mod *N*, so joins also arrive on nodes that do not own the session.
enum ServerSpread {
    /// The node session `session`'s host calls.
    static func host(session: Int, servers: Int) -> Int {
        servers > 0 ? session % servers : 0
    }

    /// The node the phone of seat `seat` (0, 1, … within its session) of session `session` first calls.
    static func phone(session: Int, seat: Int, servers: Int) -> Int {
        servers > 0 ? (session + seat) % servers : 0
    }
}
