import Dispatch
import NIOConcurrencyHelpers

/// A few threads of its own with a bounded queue, for expensive work a client can ask for: scrypt (the password
/// pool) and photo decoding (the photo pool). Such work can neither starve the worker every other endpoint shares
/// nor pile up without bound (docs/SECURITY-accounts.md, "Logins" and "Photos").
///
/// `threads` serial queues take the jobs in turn; at most `threads + queueLimit` jobs are admitted at once, and a job
/// beyond that is refused at once (the caller answers 503 `server_busy`).
final class WorkPool: Sendable {
    /// Jobs running at once.
    let threads: Int
    /// Jobs waiting beyond the running ones.
    let queueLimit: Int
    private let queues: [DispatchQueue]
    private let state = NIOLockedValueBox(Admission())

    /// Jobs admitted and not finished, and the queue the next one goes to.
    private struct Admission {
        var inFlight = 0
        var next = 0
    }

    /// `threads` serial queues labelled `label.0`, `label.1` …
    init(label: String, threads: Int, queueLimit: Int) {
        self.threads = max(1, threads)
        self.queueLimit = max(0, queueLimit)
        queues = (0..<self.threads).map { DispatchQueue(label: "\(label).\($0)") }
    }

    /// Runs `job` on one of the pool's threads and returns true, or returns false at once when the pool is full.
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        let limit = threads + queueLimit
        let index: Int? = state.withLockedValue { admission in
            guard admission.inFlight < limit else { return nil }
            admission.inFlight += 1
            admission.next = (admission.next + 1) % threads
            return admission.next
        }
        guard let index else { return false }
        queues[index].async { [state] in
            job()
            state.withLockedValue { $0.inFlight -= 1 }
        }
        return true
    }

    /// Jobs admitted and not finished (tests, metrics).
    var inFlight: Int { state.withLockedValue { $0.inFlight } }
}
