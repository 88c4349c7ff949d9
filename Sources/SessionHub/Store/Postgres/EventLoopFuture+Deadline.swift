import NIOConcurrencyHelpers
import NIOCore

extension EventLoopFuture where Value: Sendable {
    /// Blocks until the future completes, at most `timeout`: past it `StoreError.io` is thrown and `expired` runs
    /// on the future's event loop (closing the connection, so the work it waited on fails too); a value that arrives
    /// later still goes to `late` (a connection opened too late is closed there). Never call it on an event loop.
    ///
    /// A PostgreSQL server that dies mid-query can leave the connection open without an answer: the query's future
    /// then never completes, and a caller waiting on it (the lease's renewal among them) would wait for ever.
    func wait(atMost timeout: TimeAmount, _ what: String, expired: @escaping @Sendable () -> Void,
              late: @escaping @Sendable (Value) -> Void = { _ in }) throws -> Value {
        let outcome = eventLoop.makePromise(of: Value.self)
        let settled = NIOLockedValueBox(false)
        let deadline = eventLoop.scheduleTask(in: timeout) {
            guard settled.withLockedValue({ settled in defer { settled = true }; return !settled }) else { return }
            outcome.fail(StoreError.io.with(detail: "\(what): no answer within \(timeout)"))
            expired()
        }
        whenComplete { result in
            guard settled.withLockedValue({ settled in defer { settled = true }; return !settled }) else {
                if case .success(let value) = result { late(value) }
                return
            }
            deadline.cancel()
            outcome.completeWith(result)
        }
        return try outcome.futureResult.wait()
    }
}
