import Testing
@testable import SessionHub

@Suite("A player socket says hello within the hello timeout or is closed with 4005")
struct HelloTimeoutTests {
    private typealias H = SessionHarness
    private let t0 = Fixture.t0

    private func seated() throws -> SessionHarness {
        var harness = try H()
        _ = try harness.state.join(user: H.user(1), displayName: "Ana", photoURL: nil, playerId: H.player(1),
                                   resumeToken: "r1", now: t0)
        return harness
    }

    @Test("a silent socket is closed at the deadline, not before; the seat stays as it was")
    func silent() throws {
        var harness = try seated()
        #expect(harness.state.socketOpened(H.socket(1), user: H.user(1), now: t0)
            == [.scheduleTimer(at: t0 + .seconds(10))])
        #expect(!harness.state.tick(now: t0 + .seconds(9.9)).contains(.close(H.socket(1), .helloTimeout)))
        let actions = harness.state.tick(now: t0 + .seconds(10))
        #expect(actions.contains(.close(H.socket(1), .helloTimeout)))
        #expect(harness.state.lobby.players.first?.connection == .reconnecting)
        // The closed socket's own close changes nothing more.
        #expect(harness.state.socketClosed(H.socket(1), now: t0 + .seconds(10)) == [])
        #expect(harness.state.received(.hello(.init()), on: H.socket(1), now: t0 + .seconds(11)) == [])
    }

    @Test("a socket that said hello is not closed by the hello timer")
    func greeted() throws {
        var harness = try seated()
        _ = harness.state.socketOpened(H.socket(1), user: H.user(1), now: t0)
        _ = harness.state.received(.hello(.init()), on: H.socket(1), now: t0 + .seconds(9))
        #expect(!harness.state.tick(now: t0 + .seconds(10)).contains(.close(H.socket(1), .helloTimeout)))
        #expect(harness.state.lobby.players.first?.connection == .connected)
    }

    @Test("the timeout is configurable and the next deadline includes it")
    func configurable() throws {
        var configuration = SessionState.Configuration()
        configuration.helloTimeout = .milliseconds(300)
        var harness = try H(configuration: configuration)
        _ = try harness.state.join(user: H.user(1), displayName: "Ana", photoURL: nil, playerId: H.player(1),
                                   resumeToken: "r1", now: t0)
        _ = harness.state.socketOpened(H.socket(1), user: H.user(1), now: t0)
        #expect(harness.state.nextDeadline == t0 + .milliseconds(300))
        #expect(harness.state.tick(now: t0 + .milliseconds(300)).contains(.close(H.socket(1), .helloTimeout)))
    }

    @Test("a socket that waited for its session to be found keeps only the rest of the timeout from its opening")
    func fromOpening() throws {
        var harness = try seated()
        #expect(harness.state.socketOpened(H.socket(1), user: H.user(1), now: t0 + .seconds(4), opened: t0)
            == [.scheduleTimer(at: t0 + .seconds(10))])
        #expect(harness.state.tick(now: t0 + .seconds(10)).contains(.close(H.socket(1), .helloTimeout)))
    }
}
