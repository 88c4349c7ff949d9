import Dispatch
import Foundation
import Logging
@testable import PongWire
import Synchronization
import Testing
@testable import SessionHub

/// `EventWriter` while the store is out of reach (several nodes, PostgreSQL down): events are held, in order and up
/// to a bound, and written when the store is back.
struct EventWriterTests {
    typealias F = StoreFixture

    @Test("held while the store is out of reach, written in order when it is back; the oldest beyond the bound go")
    func heldUntilBack() throws {
        let store = try SessionStore.temporary()
        try store.createUser(F.guest("h1"))
        let code = try F.code("ABC234")
        try store.createSession(F.session(code, host: "h1"))
        let reachable = Atomic(false)
        let queue = DispatchQueue(label: "test.writer")
        let writer = EventWriter(store: store, queue: queue, logger: StoreBackend.quiet, maxHeld: 3,
                                 storeReachable: { reachable.load(ordering: .relaxed) })
        for i in 0..<5 {
            writer.append(StoredEvent(sessionCode: code, kind: .bounce, payload: #"{"n":\#(i)}"#, at: F.at(Double(i))))
            queue.sync {}
        }
        #expect(try store.events(sessionCode: code).isEmpty)
        #expect(writer.heldCount == 3)
        reachable.store(true, ordering: .relaxed)
        writer.retryHeld()
        queue.sync {}
        #expect(try store.events(sessionCode: code).map(\.payload) == [#"{"n":2}"#, #"{"n":3}"#, #"{"n":4}"#])
        #expect(writer.heldCount == 0)
    }
}
