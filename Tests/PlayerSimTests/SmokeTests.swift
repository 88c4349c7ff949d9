import Testing
@testable import pong_player_sim

@Test("the test target builds") func builds() { #expect(Bool(true)) }
