import Dispatch
import Foundation
import Logging
import Synchronization
@testable import PongWire
import Testing
@testable import SessionHub

/// What a session holds for a store that could not take its changes (`HeldWrites`): in order, bounded, written
/// before anything later.
@Suite("Held writes")
struct HeldWritesTests {
    static let at = Date(timeIntervalSince1970: 1_800_000_000)
    static let journeyA = Fixture.journey(at: .profiled).snapshot(now: Fixture.t0, wallNow: at)
    static let journeyB = Fixture.journey(at: .permissions).snapshot(now: Fixture.t0, wallNow: at)
    let a = PlayerID("a"), b = PlayerID("b")

    @Test("a newer journey of a seat, a freed seat's journeys, a newer phase and newer activity replace the held ones")
    func superseded() {
        var held = HeldWrites()
        held.append(.journey(a, Self.journeyA))
        held.append(.journey(b, Self.journeyA))
        held.append(.phase(.playing, at: Self.at))
        held.append(.activity(Self.at))
        held.append(.journey(a, Self.journeyB))
        held.append(.seatFreed(b, at: Self.at))
        held.append(.phase(.ended, at: Self.at))
        held.append(.activity(Self.at + 60))
        #expect(held.writes == [.journey(a, Self.journeyB), .seatFreed(b, at: Self.at), .phase(.ended, at: Self.at),
                                .activity(Self.at + 60)])
    }

    @Test("a flush writes in order and stops at the first change the store cannot take; the rest stay, in order")
    func flushStopsAtTheFirstFailure() {
        var held = HeldWrites()
        held.append(.journey(a, Self.journeyA))
        held.append(.seatFreed(b, at: Self.at))
        held.append(.phase(.ended, at: Self.at))
        var tried: [SessionWrite] = []
        #expect(!held.flush { tried.append($0); return tried.count < 2 })
        #expect(tried == [.journey(a, Self.journeyA), .seatFreed(b, at: Self.at)])
        #expect(held.writes == [.seatFreed(b, at: Self.at), .phase(.ended, at: Self.at)])
        #expect(held.flush { _ in true })
        #expect(held.isEmpty)
    }
}

/// A live session on a store that fails: the journey step it acknowledged meanwhile is written once the store takes
/// writes again (the lost step of the cluster failover test: a write failed with `.io` before the node knew the
/// store was gone, and nothing wrote it again).
@Suite("A live session's writes while the store fails")
struct LiveSessionHeldWriteTests {
    /// A store that takes writes only while `up`: what each write was, and the holding notifications.
    final class FlakyStore: Sendable {
        let up = Mutex(true)
        let written = Mutex<[SessionWrite]>([])
        let holding = Mutex<[Bool]>([])

        var recorder: SessionRecorder {
            SessionRecorder(
                write: { change in
                    guard self.up.withLock({ $0 }) else { return false }
                    self.written.withLock { $0.append(change) }
                    return true
                },
                holding: { holding in self.holding.withLock { $0.append(holding) } },
                now: { HeldWritesTests.at },
                activityInterval: .infinity)
        }
    }

    static func live(_ state: SessionState, _ store: FlakyStore,
                     onDiscard: @escaping @Sendable (SessionCode, HeldWrites) -> Void = { _, _ in }) -> LiveSession {
        LiveSession(state: state, queue: DispatchQueue(label: "test.session"), logger: Logger(label: "test"),
                    metrics: HubMetrics(), mediaErrorInterval: .seconds(1), recorder: store.recorder,
                    onDiscard: onDiscard)
    }

    static func held(_ live: LiveSession) async -> HeldWrites {
        await withCheckedContinuation { continuation in live.heldWrites { continuation.resume(returning: $0) } }
    }

    /// The journey phases written, in order.
    static func journeys(_ writes: [SessionWrite]) -> [Int] {
        writes.compactMap { if case .journey(_, let snapshot) = $0 { snapshot.phase } else { nil } }
    }

    /// The seat a journey write is for.
    static func seat(_ write: SessionWrite?) -> PlayerID? {
        if case .journey(let player, _)? = write { player } else { nil }
    }

    @Test("a step acknowledged while the store fails is held, then written when the store is back")
    func stepWrittenWhenBack() async throws {
        var harness = try SessionHarness()
        harness.seat(1)
        let store = FlakyStore()
        let live = Self.live(harness.state, store)
        store.up.withLock { $0 = false }
        live.submit { state, now in
            state.received(.battery(Fixture.fullBattery), on: SessionHarness.socket(1), now: now)
                + state.received(.permissions(Fixture.granted), on: SessionHarness.socket(1), now: now)
        }
        let held = await Self.held(live)
        #expect(Self.journeys(held.writes) == [PlayerJourney.Phase.permissions.rawValue], "the newest journey held, once")
        #expect(store.written.withLock { $0 }.isEmpty)
        #expect(store.holding.withLock { $0 } == [true])
        store.up.withLock { $0 = true }
        live.retryHeldWrites()
        #expect(await Self.held(live).isEmpty)
        #expect(Self.journeys(store.written.withLock { $0 }) == [PlayerJourney.Phase.permissions.rawValue])
        #expect(store.holding.withLock { $0 } == [true, false])
    }

    @Test("a later change is written after the held one, with it, without waiting for a retry")
    func laterChangeCarriesTheHeldOne() async throws {
        var harness = try SessionHarness()
        harness.seat(1)
        harness.seat(2)
        let store = FlakyStore()
        let live = Self.live(harness.state, store)
        store.up.withLock { $0 = false }
        live.submit { state, now in state.received(.battery(Fixture.fullBattery), on: SessionHarness.socket(1), now: now) }
        _ = await Self.held(live)
        store.up.withLock { $0 = true }
        live.submit { state, now in state.received(.battery(Fixture.fullBattery), on: SessionHarness.socket(2), now: now) }
        #expect(await Self.held(live).isEmpty)
        let written = store.written.withLock { $0 }
        #expect(written.count == 2)
        #expect(Self.seat(written.first) == SessionHarness.player(1), "the held change first")
    }

    @Test("a session ended while the store fails hands its end to the hub, which writes it later")
    func endedSessionHandsItsEndOver() async throws {
        var harness = try SessionHarness()
        harness.seat(1)
        let store = FlakyStore()
        let handed = Mutex<HeldWrites?>(nil)
        let live = Self.live(harness.state, store) { _, held in handed.withLock { $0 = held } }
        store.up.withLock { $0 = false }
        live.submit { state, now in (try? state.end(by: SessionHarness.host, now: now)) ?? [] }
        _ = await Self.held(live)
        let writes = try #require(handed.withLock { $0 }).writes
        #expect(writes.contains(.phase(.ended, at: HeldWritesTests.at)))
        #expect(await Self.held(live).isEmpty, "nothing left in the session")
        #expect(store.holding.withLock { $0 } == [true, false])
    }
}
