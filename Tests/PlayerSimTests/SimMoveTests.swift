import Foundation
import Testing
@testable import pong_player_sim

/// The simulator's side of 4101 against a real pongd and a stand-in non-owner node (`MovingNode`): calls spread
/// over both, a join through the stand-in answered with its own absolute socket URL, that socket closed with 4101.
@Suite("Simulator following 4101", .serialized, .timeLimit(.minutes(2)))
struct SimMoveTests {
    @Test("a phone whose join went to another node opens the socket it names, follows the 4101 to the owner, gets ready")
    func moved() async throws {
        let owner = try await SimTestServer.start()
        let other = try await MovingNode.start(owner: owner.address)
        let (track, labels) = try SimEndToEndTests.clickTrack()
        let plan = SimRunner.Plan(servers: [owner.address, other.address], sessions: 1, playersPerSession: 3,
                                  track: track, labels: labels, ramp: 0, settings: PhoneSettings(duration: 3),
                                  signUpEvery: 0, progressEvery: 60, runTag: "mv\(UInt32.random(in: 0...UInt32.max))")
        let values = try await SimRunner(plan: plan).run()
        try await other.stop()
        try await owner.stop()

        #expect(values.ready == 3 && values.failed == 0)
        #expect(values.joinsByServer == [owner.address.node: 2, other.address.node: 1], "seat 1 joins on the other node")
        #expect(other.moves == 1 && values.moves == 1, "its socket there was moved once")
        #expect(values.phonesByNode == [owner.address.node: 3], "every socket ended on the owner")
        #expect(values.reconnects == 0 && values.failovers == 0 && values.neverBack == 0, "a move is no loss")
        let allowed: Set = ["connection_test_failed"]
        #expect(Set(values.errors.keys).isSubset(of: allowed), "\(values.errors)")
        #expect(Report(values).jsonLine.contains(#""moves4101":1"#))
    }
}
