import Dispatch
import Foundation
import Testing
@testable import SessionHub

@Suite("Work pool: bounded threads and queue")
struct WorkPoolTests {
    @Test("threads + queue jobs are admitted; the next is refused at once; a finished job frees a place")
    func bounded() {
        let pool = WorkPool(label: "test", threads: 1, queueLimit: 2)
        let gate = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for _ in 0..<3 {
            done.enter()
            #expect(pool.submit { gate.wait(); done.leave() })
        }
        #expect(pool.inFlight == 3)
        #expect(!pool.submit {})
        for _ in 0..<3 { gate.signal() }
        done.wait()
        // The counter drops just after each job returns.
        while pool.inFlight > 0 { Thread.sleep(forTimeInterval: 0.001) }
        #expect(pool.submit {})
    }
}
