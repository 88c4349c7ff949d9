/// The read deadline of one HTTP connection, by where it is in its request cycle (docs/SECURITY.md, "Timeouts").
///
/// A connection waits for a request head (`requestHeadTimeout` after the accept, `keepAliveTimeout` after a
/// response), then for the body (`requestBodyTimeout` after the head); while the server works on a request there is
/// no deadline. Pure: the caller passes `now` and arms a timer for the returned deadline (`HTTPHandler`).
struct HTTPDeadlines: Equatable {
    /// Where the connection is.
    enum Phase: Equatable {
        /// Waiting for a request head: the first one, or the next one on a keep-alive connection.
        case awaitingHead
        /// The head arrived; reading the body.
        case readingBody
        /// The request is complete and the server is answering it.
        case responding
    }

    /// What the caller does after an event.
    enum Action: Equatable {
        /// Arm the timer for this instant (replacing any armed one).
        case schedule(ContinuousClock.Instant)
        /// Disarm the timer.
        case cancel
        /// The deadline passed: close the connection.
        case close
    }

    private(set) var phase: Phase = .awaitingHead
    private(set) var deadline: ContinuousClock.Instant?
    private let limits: TransportLimits

    init(limits: TransportLimits) {
        self.limits = limits
    }

    /// The connection was accepted.
    mutating func opened(now: ContinuousClock.Instant) -> Action {
        phase = .awaitingHead
        return arm(now + limits.requestHeadTimeout)
    }

    /// A request head arrived.
    mutating func headReceived(now: ContinuousClock.Instant) -> Action {
        phase = .readingBody
        return arm(now + limits.requestBodyTimeout)
    }

    /// The request's end arrived: the server works on it without a deadline.
    mutating func requestEnded() -> Action {
        phase = .responding
        deadline = nil
        return .cancel
    }

    /// The response was written and the connection stays open for the next request.
    mutating func responseSent(now: ContinuousClock.Instant) -> Action {
        phase = .awaitingHead
        return arm(now + limits.keepAliveTimeout)
    }

    /// The armed timer fired (possibly early, or after the deadline moved).
    mutating func timerFired(now: ContinuousClock.Instant) -> Action? {
        guard let deadline else { return nil }
        return now >= deadline ? .close : .schedule(deadline)
    }

    private mutating func arm(_ instant: ContinuousClock.Instant) -> Action {
        deadline = instant
        return .schedule(instant)
    }
}
