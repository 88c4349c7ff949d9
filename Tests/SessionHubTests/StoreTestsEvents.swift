import Foundation
@testable import PongWire
import Synchronization
import Testing
@testable import SessionHub

@Suite("Store: events")
struct StoreTestsEvents {
    typealias F = StoreFixture

    /// A store with session `ABC234` hosted by `u1`, seat `p1`, and an empty session `XYZ789`.
    func seededStore(_ backend: StoreBackend) throws -> any HubStore {
        let store = try backend.makeStore()
        try store.createUser(F.registered("u1", email: "ana@example.com"))
        try store.createSession(F.session(try F.code("ABC234"), host: "u1"))
        try store.createSession(F.session(try F.code("XYZ789"), host: "u1"))
        try store.createMembership(F.seat("p1", in: try F.code("ABC234"), user: "u1"))
        return store
    }

    func bounce(_ index: Int) throws -> StoredEvent {
        StoredEvent(sessionCode: try F.code("ABC234"), playerId: PlayerID("p1"), kind: .bounce,
                    payload: #"{"streamTime":\#(index),"kind":"table","confidence":0.9}"#, at: F.at(Double(index)))
    }

    @Test("appended events get increasing ids and read back in order, per session", arguments: StoreBackend.available)
    func appendAndRead(backend: StoreBackend) throws {
        let store = try seededStore(backend)
        let code = try F.code("ABC234")
        let joined = try store.appendEvent(StoredEvent(sessionCode: code, playerId: PlayerID("p1"), kind: .joined,
                                                       at: F.t0))
        var appended = [joined]
        for index in 1...4 { appended.append(try store.appendEvent(try bounce(index))) }
        let ended = StoredEvent(sessionCode: code, kind: .ended, payload: #"{"reason":"hostEnded"}"#, at: F.at(9))
        appended.append(try store.appendEvent(ended))
        let ids = appended.compactMap(\.id)
        #expect(ids.count == 6 && ids == ids.sorted() && Set(ids).count == 6)
        #expect(try store.events(sessionCode: code) == appended)
        #expect(try store.events(sessionCode: try F.code("XYZ789")).isEmpty)
        #expect(appended.last?.playerId == nil && appended.last?.kind == .ended)
    }

    @Test("a limit gives the newest events, oldest first", arguments: StoreBackend.available)
    func limit(backend: StoreBackend) throws {
        let store = try seededStore(backend)
        var appended: [StoredEvent] = []
        for index in 1...5 { appended.append(try store.appendEvent(try bounce(index))) }
        let code = try F.code("ABC234")
        #expect(try store.events(sessionCode: code, limit: 2) == Array(appended.suffix(2)))
        #expect(try store.events(sessionCode: code, limit: 10) == appended)
        #expect(try store.events(sessionCode: code, limit: 0).isEmpty)
    }

    @Test("an event of an unknown session or seat, or with a payload that is not JSON, is refused",
          arguments: StoreBackend.available)
    func constraints(backend: StoreBackend) throws {
        let store = try seededStore(backend)
        #expect(throws: StoreError.constraint) {
            try store.appendEvent(StoredEvent(sessionCode: try F.code("CCC444"), kind: .started, at: F.t0))
        }
        #expect(throws: StoreError.constraint) {
            try store.appendEvent(StoredEvent(sessionCode: try F.code("ABC234"), playerId: PlayerID("p9"),
                                              kind: .left, at: F.t0))
        }
        #expect(throws: StoreError.constraint) {
            try store.appendEvent(StoredEvent(sessionCode: try F.code("ABC234"), kind: .started, payload: "{",
                                              at: F.t0))
        }
        #expect(try store.events(sessionCode: try F.code("ABC234")).isEmpty)
    }

    @Test("kinds outside the known set are kept as they are", arguments: StoreBackend.available)
    func openKinds(backend: StoreBackend) throws {
        let store = try seededStore(backend)
        let custom = StoredEvent.Kind(rawValue: "muted")
        let event = try store.appendEvent(StoredEvent(sessionCode: try F.code("ABC234"), playerId: PlayerID("p1"),
                                                      kind: custom, payload: #"{"video":true}"#, at: F.t0))
        #expect(try store.events(sessionCode: try F.code("ABC234")) == [event])
        #expect(event.kind.rawValue == "muted")
    }

    @Test("threads appending at once lose nothing", arguments: StoreBackend.available)
    func concurrentAppends(backend: StoreBackend) throws {
        let store = try seededStore(backend)
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<25 {
                do {
                    _ = try store.appendEvent(try bounce(thread * 100 + index))
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        let events = try store.events(sessionCode: try F.code("ABC234"))
        #expect(events.count == 200)
        #expect(Set(events.compactMap(\.id)).count == 200)
    }
}
