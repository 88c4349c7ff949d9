@testable import PongWire
import Testing
@testable import SessionHub

@Suite("HTTP bodies")
struct HTTPBodiesTests {
    private func decode<T: Decodable>(_ type: T.Type, _ text: String) throws(MessageDecodingError) -> T {
        try MessageCodec.decode(type, from: Array(text.utf8))
    }

    @Test("signup, login and guest bodies decode; a guest body may be empty or carry anything")
    func auth() throws {
        #expect(try decode(SignupRequest.self,
                           #"{"name":"Ana","email":"a@b.co","password":"pw","acceptTerms":true}"#)
            == SignupRequest(name: "Ana", email: "a@b.co", password: "pw", acceptTerms: true))
        #expect(try decode(LoginRequest.self, #"{"email":"a@b.co","password":"pw"}"#).email == "a@b.co")
        #expect(try decode(GuestRequest.self, "{}") == GuestRequest())
        #expect(try decode(GuestRequest.self, #"{"x":1}"#) == GuestRequest())
        #expect(throws: MessageDecodingError.missingField("acceptTerms")) {
            try decode(SignupRequest.self, #"{"name":"Ana","email":"a@b.co","password":"pw"}"#)
        }
    }

    @Test("auth answers: guest: true only for guests")
    func authResponses() throws {
        #expect(try MessageCodec.encodeJSON(AuthResponse(userId: UserID("u1"), token: "t"))
            == #"{"token":"t","userId":"u1"}"#)
        #expect(try MessageCodec.encodeJSON(AuthResponse(userId: UserID("g1"), token: "t", guest: true))
            == #"{"guest":true,"token":"t","userId":"g1"}"#)
    }

    @Test("a profile always lists displayName and photoURL, null until set")
    func profile() throws {
        #expect(try MessageCodec.encodeJSON(Profile(userId: UserID("u1"), displayName: nil, photoURL: nil, guest: true))
            == #"{"displayName":null,"guest":true,"photoURL":null,"userId":"u1"}"#)
        #expect(try decode(ProfileRequest.self, #"{"displayName":"Ana"}"#) == ProfileRequest(displayName: "Ana"))
    }

    @Test("create session: serveRule defaults to standard; other modes and points are invalid_field")
    func createSession() throws {
        let request = try decode(CreateSessionRequest.self, #"{"mode":"fullGame","pointsToWin":21}"#)
        #expect(request.settings == GameSettings(mode: .fullGame, pointsToWin: .twentyOne, serveRule: .standard))
        #expect(throws: MessageDecodingError.invalidField("pointsToWin")) {
            try decode(CreateSessionRequest.self, #"{"mode":"rally","pointsToWin":15}"#)
        }
        #expect(throws: MessageDecodingError.invalidField("pointsToWin")) {
            try decode(CreateSessionRequest.self, #"{"mode":"rally","pointsToWin":11.5}"#)
        }
        #expect(throws: MessageDecodingError.invalidField("mode")) {
            try decode(CreateSessionRequest.self, #"{"mode":"doubles","pointsToWin":11}"#)
        }
        #expect(try MessageCodec.encodeJSON(CreateSessionResponse(
            code: "ABC234", displayCode: "ABC-234", joinURL: "https://x/j/ABC234", hostToken: "h"))
            == #"{"code":"ABC234","displayCode":"ABC-234","hostToken":"h","joinURL":"https://x/j/ABC234"}"#)
        #expect(try MessageCodec.encodeJSON(JoinResponse(
            playerId: PlayerID("p1"), websocketURL: "/sessions/ABC234/player/u1", resumeToken: "r"))
            == #"{"playerId":"p1","resumeToken":"r","websocketURL":"/sessions/ABC234/player/u1"}"#)
    }

    @Test("streams/start: null or absent tracks are the without-video/audio choices; both null is no_media")
    func streamStart() throws {
        let audioOnly = try decode(StreamStartRequest.self, #"{"sessionCode":"abc-234","video":null,"#
            + #""audio":{"codec":"opus","sampleRate":48000,"channels":1,"preSkip":312}}"#)
        #expect(audioOnly.video == nil)
        #expect(audioOnly.audio == .init(codec: .opus, sampleRate: 48000, channels: 1, preSkip: 312))
        #expect(try audioOnly.validated() == SessionCode(userInput: "ABC234"))
        let neither = try decode(StreamStartRequest.self, #"{"sessionCode":"ABC234","video":null,"audio":null}"#)
        #expect(throws: APIError.noMedia) { try neither.validated() }
        let badCode = StreamStartRequest(sessionCode: "ABC23", video: nil, audio: nil)
        #expect(throws: APIError.invalidSessionCode) { try badCode.validated() }
    }

    @Test("streams/start field errors name the nested field", arguments: [
        (#"{"sessionCode":"ABC234","video":{"codec":"h265","quality":"720p","fps":30}}"#, "video.codec"),
        (#"{"sessionCode":"ABC234","video":{"codec":"vp8","quality":"720p","fps":24}}"#, "video.fps"),
        (#"{"sessionCode":"ABC234","video":{"codec":"vp8","quality":"720p","fps":30.5}}"#, "video.fps"),
        (#"{"sessionCode":"ABC234","audio":{"codec":"aac","sampleRate":1e400,"channels":1}}"#, "audio.sampleRate"),
        (#"{"sessionCode":"ABC234","audio":{"codec":"aac","sampleRate":100,"channels":1}}"#, "audio.sampleRate"),
        (#"{"sessionCode":"ABC234","audio":{"codec":"aac","sampleRate":44100,"channels":6}}"#, "audio.channels"),
        (#"{"sessionCode":"ABC234","audio":{"codec":"opus","sampleRate":48000,"channels":1,"preSkip":-3}}"#,
         "audio.preSkip"),
    ])
    func streamStartErrors(text: String, field: String) {
        #expect(throws: MessageDecodingError.invalidField(field)) { try decode(StreamStartRequest.self, text) }
    }

    @Test("a missing nested field is named with its path")
    func nestedMissing() {
        #expect(throws: MessageDecodingError.missingField("video.fps")) {
            try decode(StreamStartRequest.self, #"{"sessionCode":"ABC234","video":{"codec":"vp8","quality":"auto"}}"#)
        }
    }
}
