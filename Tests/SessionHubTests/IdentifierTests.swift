import Foundation
@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Identifiers")
struct IdentifierTests {
    @Test("player, user and photo identifiers are bare JSON strings both ways, ordered by their text")
    func bareStrings() throws {
        let encoded = try JSONEncoder().encode([PlayerID("p2"), PlayerID("p1")])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["p2","p1"]"#)
        #expect(try JSONDecoder().decode([UserID].self, from: Data(#"["u1"]"#.utf8)) == [UserID("u1")])
        #expect(try JSONDecoder().decode(PhotoID.self, from: Data(#""ab""#.utf8)) == PhotoID("ab"))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PlayerID.self, from: Data(#"{"rawValue":"p"}"#.utf8)) }
        #expect([PlayerID("b"), PlayerID("a")].sorted() == [PlayerID("a"), PlayerID("b")])
        #expect("\(UserID("u9"))" == "u9")
    }
}
