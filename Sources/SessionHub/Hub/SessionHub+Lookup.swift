import PongWire

/// Looking session codes up for clients under the failed-lookup budget (`CodeGuessBudget`; docs/SECURITY.md,
/// "Code guessing"). Every path that could tell a live code from a dead one goes through here: the lobby, joins,
/// host controls, `POST /streams/start` and both sockets.
extension SessionHub {
    /// What looking a code up answers.
    enum CodeLookup: Sendable {
        /// A live session; `member`: the caller is its host or holds a seat in it.
        case live(LiveSession, member: Bool)
        /// No such session, or one the caller has no business with: 404 `session_not_found`, close 4000.
        case unknown
        /// The address's budget is spent: 429 `too_many_code_guesses` with `Retry-After`, close 4129.
        case limited(retryAfter: Int)
        /// Live on the node at this URL (several nodes): HTTP calls are forwarded there, sockets closed with 4101.
        case remote(url: String)
        /// Between owners (a failover or handover in progress): 503 `session_unavailable`, close 4100.
        case moving
        /// The store cannot be reached to find it: 503 `store_unavailable`, close 4100.
        case storeDown
    }

    /// Looks `text` up for `user` (nil: no token) calling from `address`. A well-formed code that names no live
    /// session spends one from the address's budget; while the budget is spent, only the session's host and seated
    /// players get through. A malformed code is `unknown` without spending (it can never be live).
    func lookUp(_ text: String, from address: String, user: UserID?,
                completion: @escaping @Sendable (CodeLookup) -> Void) {
        guard let code = SessionCode(userInput: text) else { return completion(.unknown) }
        if let live = session(code) { return found(live, user: user, from: address, completion: completion) }
        guard cluster != nil else { return completion(failedLookup(from: address)) }
        // A spent address asks the store nothing (a guesser's lookups cost no database read), unless it carries a
        // token: the session's members still get through, as for a session here.
        if user == nil, let wait = codeGuesses.withLockedValue({ $0.wait(for: address, now: .now) }) {
            return completion(.limited(retryAfter: wait))
        }
        // Several nodes: the store says where it lives (a read: off the event loop).
        worker.async {
            switch self.locate(code) {
            case .here(let live): self.found(live, user: user, from: address, completion: completion)
            case .elsewhere(let url): completion(.remote(url: url))
            case .moving: completion(.moving)
            case .storeDown: completion(.storeDown)
            case .none: completion(self.failedLookup(from: address))
            }
        }
    }

    /// A live session here: `live` for its members, for others while the address has budget.
    private func found(_ live: LiveSession, user: UserID?, from address: String,
                       completion: @escaping @Sendable (CodeLookup) -> Void) {
        guard let user else { return completion(stranger(at: live, from: address)) }
        live.read({ $0.host.userId == user || $0.playerID(of: user) != nil }) { member in
            completion(member ? .live(live, member: true) : self.stranger(at: live, from: address))
        }
    }

    /// A lookup from `address` failed (an unknown code, or a live one the caller has no business with): spends one
    /// from its budget; `limited` when there was none left.
    func failedLookup(from address: String) -> CodeLookup {
        guard let wait = codeGuesses.withLockedValue({ $0.spend(for: address, now: .now) }) else { return .unknown }
        logger.debug("code lookups limited", metadata: ["client.address": "\(address)", "retry.after": "\(wait)"])
        return .limited(retryAfter: wait)
    }

    /// A live session found for someone who is neither its host nor seated in it: fine while the address has budget
    /// (a joining player knows the code), `limited` once it has none (as an unknown code would be).
    private func stranger(at live: LiveSession, from address: String) -> CodeLookup {
        guard let wait = codeGuesses.withLockedValue({ $0.wait(for: address, now: .now) }) else {
            return .live(live, member: false)
        }
        return .limited(retryAfter: wait)
    }
}

extension HubRouter {
    /// The HTTP answer of a lookup that found nothing usable here.
    static func refusal(_ lookup: SessionHub.CodeLookup) -> HTTPResponse {
        switch lookup {
        case .limited(let wait): .error(.tooManyCodeGuesses, retryAfter: wait)
        case .unknown, .live: .error(.sessionNotFound)
        case .remote, .moving: .error(.sessionUnavailable, retryAfter: 1)
        case .storeDown: .error(.storeUnavailable, retryAfter: 2)
        }
    }

    /// Answers a lookup that found no session here: forwards the request to the owner node when it is elsewhere
    /// (`forward`), else sends the refusal.
    func refuse(_ lookup: SessionHub.CodeLookup, _ request: HTTPRequest, _ reply: Reply) {
        if case .remote(let url) = lookup { return forward(request, to: url, reply: reply) }
        reply.send(Self.refusal(lookup))
    }
}
