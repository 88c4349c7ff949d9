@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Player journey: the lobby grade while streaming")
struct PlayerJourneyGradeTests {
    @Test("the stream's media rate raises the tested grade, never lowers it; a restarted stream forgets it")
    func followsMedia() throws {
        var journey = Fixture.journey(at: .streamConfigured)
        _ = journey.received(.connectionTestStart, now: Fixture.t0)
        _ = journey.connectionTestCompleted(Fixture.fairTest, now: Fixture.t0)
        #expect(journey.lobbyGrade == .fair)
        #expect(journey.mediaRateGraded(.poor) == [])  // 32 kb/s of Opus proves little about the link
        #expect(journey.lobbyGrade == .fair)
        #expect(journey.mediaRateGraded(.good) == [.broadcastLobby])  // 6 Mbit/s of video arrived: good
        #expect(journey.lobbyEntry(PlayerID("p1")).grade == .good)
        #expect(journey.mediaRateGraded(.good) == [])
        _ = try journey.streamStarted(video: true, audio: true, now: Fixture.t0)
        #expect(journey.streamGrade == nil)
        #expect(journey.lobbyGrade == .fair)
    }

    @Test("without a connection test the lobby's grade stays null, whatever the media rate says")
    func untested() {
        var journey = Fixture.journey(at: .profiled)
        #expect(journey.lobbyGrade == nil)
        #expect(journey.mediaRateGraded(.poor) == [], "an audio-only stream's rate is no grade of the link")
        #expect(journey.lobbyGrade == nil)
    }
}
