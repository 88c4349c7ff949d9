import PongWire

/// Several pongd nodes (docs/PROTOCOL.md, docs/SIMULATOR.md "Several nodes"): a 4101 is followed to the URL in its
/// reason, a 503 `session_unavailable` / `store_unavailable` is waited out, and a phone whose node does not take its
/// socket again asks the next node (`POST /sessions/{code}/join` again: the same seat, the owner's socket URL).
extension PhoneJourney {
    /// The 503 codes that mean "the session or the store is out of reach for a moment": retried after `Retry-After`.
    static let unavailableCodes: Set<String> = [APIError.sessionUnavailable.code, APIError.storeUnavailable.code]

    /// A 503 `session_unavailable` or `store_unavailable` to `call`: retried after `Retry-After` (1 s without it), at
    /// most `maxUnavailableRetries` times in a row and, while the socket is lost, within the failover limit.
    mutating func unavailable(_ call: HTTPCall, code: String, retryAfter: Double?, now: MonoTime) -> [Action] {
        guard unavailableRetries < maxUnavailableRetries else {
            return [.countError(code)] + fail(.http("\(call.label) answered 503 \(code) \(unavailableRetries + 1) times"))
        }
        if pastFailoverLimit(now: now) { return [.countError(code)] + notBack() }
        unavailableRetries += 1
        return [.countError(code), .schedule(.retryHTTP, at: now.adding(seconds: max(0.2, retryAfter ?? 1)))]
    }

    /// A 4101 with `reason`: the socket to open now, unless the reason is no URL or too many came in a row (nil:
    /// the close is retried like a drop).
    mutating func followMove(reason: String?) -> [Action]? {
        guard consecutiveMoves < Self.maxConsecutiveMoves, let token,
              let target = reason.flatMap({ SocketURL.resolve($0, against: socketURL?.url, token: token) })
        else { return nil }
        consecutiveMoves += 1
        moving = true
        socketURL = target
        return [.followedMove(to: target.node)] + (audioStarted ? [.pauseAudio] : []) + [.connect(target)]
    }

    /// Asks the next node for the seat's socket after the attempt's backoff (`uniform` draws its jitter): a join
    /// there; the journey fails once the socket has been lost for longer than `failoverLimit`.
    mutating func askNextNode(now: MonoTime, uniform: Double, code: UInt16? = nil, reason: String? = nil) -> [Action] {
        if pastFailoverLimit(now: now) { return notBack() }
        if !rejoining { server = (server + 1) % servers.count }
        rejoining = true
        pendingCall = .join(code: typedCode)
        let delay = backoff.nextDelay(code: code, reason: reason, uniform: uniform)
        return [.schedule(.retryHTTP, at: now.adding(seconds: delay))]
    }

    /// The answer to a join made to find the seat again: open the socket it names (and resume there).
    mutating func rejoined(_ body: [UInt8]) -> [Action] {
        rejoining = false
        if stopped { return finish() }
        guard let reply = Self.decode(JoinResponse.self, body), let token,
              let url = SocketURL.resolve(reply.websocketURL, against: servers[server].url, token: token)
        else { return badReply(.join(code: typedCode)) }
        var actions: [Action] = []
        if let playerId, reply.playerId != playerId { actions.append(.countError("seat_changed")) }
        playerId = reply.playerId
        resumeToken = reply.resumeToken
        socketURL = url
        return actions + [.connect(url)]
    }

    /// With several nodes, whether the socket has been lost for longer than `failoverLimit`.
    func pastFailoverLimit(now: MonoTime) -> Bool {
        guard servers.count > 1, let lostAt else { return false }
        return now.seconds(since: lostAt) > failoverLimit
    }

    private mutating func notBack() -> [Action] {
        [.countError("not_back")] + fail(.timeout("not back on any node \(Int(failoverLimit)) s after the socket was lost"))
    }
}
