import Foundation
@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Message codec: server messages")
struct ServerMessageTests {
    static let player = LobbySnapshot.Player(
        playerId: PlayerID("p1"), name: "Ana", photoURL: nil, connection: .connected, ready: true,
        stream: .init(video: .live, audio: .off, muted: .init(video: false, audio: true)), grade: nil)
    static let lobby = LobbySnapshot(
        code: "ABC234", displayCode: "ABC-234", state: .waiting, host: .init(name: "Hank"),
        game: GameSettings(mode: .rally, pointsToWin: .eleven), players: [player])

    @Test("the lobby message has exactly the contract's fields beside type, photoURL and grade as null")
    func lobbyFields() throws {
        let object = JSON.object(try MessageCodec.encode(.lobby(Self.lobby)))
        #expect(Set(object.keys) == ["type", "code", "displayCode", "state", "host", "game", "players"])
        #expect(object["type"] as? String == "lobby")
        #expect(object["state"] as? String == "waiting")
        #expect(JSON.keys(object["host"]) == ["name"])
        #expect(JSON.keys(object["game"]) == ["mode", "pointsToWin", "serveRule"])
        let players = try #require(object["players"] as? [[String: Any]])
        #expect(Set(players[0].keys) == ["playerId", "name", "photoURL", "connection", "ready", "stream", "grade"])
        #expect(players[0]["photoURL"] is NSNull)
        #expect(players[0]["grade"] is NSNull)
        #expect(JSON.keys(players[0]["stream"]) == ["video", "audio", "muted"])
        #expect(JSON.keys((players[0]["stream"] as? [String: Any])?["muted"]) == ["video", "audio"])
    }

    @Test("the lobby snapshot encodes to stable text")
    func lobbyText() throws {
        #expect(try MessageCodec.encode(.lobby(Self.lobby)) == #"{"code":"ABC234","displayCode":"ABC-234","#
            + #""game":{"mode":"rally","pointsToWin":11,"serveRule":"standard"},"host":{"name":"Hank"},"#
            + #""players":[{"connection":"connected","grade":null,"name":"Ana","photoURL":null,"playerId":"p1","#
            + #""ready":true,"stream":{"audio":"off","muted":{"audio":true,"video":false},"video":"live"}}],"#
            + #""state":"waiting","type":"lobby"}"#)
    }

    @Test("a player's welcome carries playerId, resumeToken and the lobby; a dashboard's only the lobby")
    func welcome() throws {
        let player = JSON.object(try MessageCodec.encode(
            .welcome(Welcome(playerId: PlayerID("p1"), resumeToken: "r", lobby: Self.lobby))))
        #expect(Set(player.keys) == ["type", "playerId", "resumeToken", "lobby"])
        #expect(JSON.keys(player["lobby"]) == ["code", "displayCode", "state", "host", "game", "players"])
        let dashboard = JSON.object(try MessageCodec.encode(.welcome(Welcome(lobby: Self.lobby))))
        #expect(Set(dashboard.keys) == ["type", "lobby"])
    }

    static let samples: [(message: ServerMessage, type: String, keys: Set<String>)] = [
        (.readiness(ReadinessReport(checks: [.init(id: .battery, status: .warn, message: "Low")])),
         "readiness", ["canBeReady", "checks"]),
        (.probePing(ProbeStamp(id: 3, t: 99)), "probe.ping", ["id", "t"]),
        (.probeUpload(ProbeUpload(seconds: 2)), "probe.upload", ["seconds"]),
        (.connectionTest(Fixture.goodTest), "connectionTest",
         ["uploadMbps", "rttMs", "rttUnderLoadMs", "jitterMs", "grade", "autoQuality"]),
        (.connectionTestFailed(ConnectionTestFailure(failure: "no_filler")), "connectionTest",
         ["failure", "message"]),
        (.bounce(Bounce(playerId: PlayerID("p1"), streamTime: 1.25, captureTime: 1_000_000, kind: .table,
                        confidence: 0.9)),
         "bounce", ["playerId", "streamTime", "captureTime", "kind", "confidence"]),
        (.stream(StreamReport(state: .live, resolution: "1280x720", fps: 30, uploadKbps: 2500)), "stream",
         ["state", "resolution", "fps", "uploadKbps"]),
        (.stream(StreamReport(state: .failed, resolution: nil, fps: nil, uploadKbps: 0,
                              diagnostics: ["Check network connection"])),
         "stream", ["state", "resolution", "fps", "uploadKbps", "diagnostics"]),
        (.error(ErrorBody(code: "out_of_order", message: "Send hello first")), "error", ["code", "message"]),
        (.sessionEnded(SessionEnded(reason: .hostEnded)), "sessionEnded", ["reason"]),
        (.welcome(Welcome(playerId: PlayerID("p1"), resumeToken: "r", lobby: lobby)), "welcome",
         ["playerId", "resumeToken", "lobby"]),
        (.lobby(lobby), "lobby", ["code", "displayCode", "state", "host", "game", "players"]),
    ]

    @Test("each server message has the contract's type and fields, and decodes back to itself")
    func fields() throws {
        for sample in Self.samples {
            let text = try MessageCodec.encode(sample.message)
            let object = JSON.object(text)
            #expect(object["type"] as? String == sample.type)
            #expect(Set(object.keys) == sample.keys.union(["type"]))
            #expect(try JSONDecoder().decode(ServerMessage.self, from: Data(text.utf8)) == sample.message)
        }
        #expect(Set(Self.samples.map(\.type)) == Set(ServerMessage.Kind.allCases.map(\.rawValue)))
    }

    @Test("readiness and error encode to stable text")
    func stableText() throws {
        let report = ReadinessReport(checks: [.init(id: .profile, status: .ok, message: "Profile ready")])
        #expect(try MessageCodec.encode(.readiness(report))
            == #"{"canBeReady":true,"checks":[{"id":"profile","message":"Profile ready","status":"ok"}],"#
            + #""type":"readiness"}"#)
        #expect(try MessageCodec.encode(.error(.outOfOrder("Send hello first")))
            == #"{"code":"out_of_order","message":"Send hello first","type":"error"}"#)
        #expect(try MessageCodec.encode(.connectionTest(Fixture.goodTest)) == #"{"autoQuality":"1080p","grade":"good","jitterMs":5,"#
            + #""rttMs":{"median":40,"p90":60},"rttUnderLoadMs":{"median":80,"p90":120},"type":"connectionTest","#
            + #""uploadMbps":12.4}"#)
    }

    @Test("a stream report without video says resolution and fps are null")
    func streamNulls() throws {
        let object = JSON.object(try MessageCodec.encode(
            .stream(StreamReport(state: .starting, resolution: nil, fps: nil, uploadKbps: 0))))
        #expect(object["resolution"] is NSNull)
        #expect(object["fps"] is NSNull)
    }

    @Test("a value JSON cannot carry is an internal error, not a crash")
    func nan() {
        let bounce = Bounce(playerId: PlayerID("p"), streamTime: .nan, captureTime: 0, kind: .unknown, confidence: 0)
        #expect(throws: APIError.internal) { try MessageCodec.encode(.bounce(bounce)) }
    }

    @Test("upload grades: good over 5 Mbps, fair 2 to 5, poor under 2")
    func grades() {
        #expect(ConnectionGrade(uploadMbps: 5.01) == .good)
        #expect(ConnectionGrade(uploadMbps: 5) == .fair)
        #expect(ConnectionGrade(uploadMbps: 2) == .fair)
        #expect(ConnectionGrade(uploadMbps: 1.99) == .poor)
    }

    @Test("close codes: 4000-4099 are final, 4100-4199 retry")
    func closeCodes() {
        for code in [CloseCode.sessionEnded, .authFailed, .left, .notJoined, .replaced] {
            #expect(code.isFinal)
        }
        #expect(CloseCode.sessionEnded.code == 4000)
        #expect(!CloseCode.serverRestarting.isFinal)
        #expect(!CloseCode.moved(to: "wss://b.example/sessions/ABC234").isFinal)
    }
}
