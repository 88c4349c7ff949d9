import Foundation
import PongWire
import Testing
@testable import pong_player_sim

/// The simulator against several pongd nodes, without any: socket URLs resolved as a browser does, calls spread
/// over the nodes, 4101s followed, a lost node's phones asking the next node, failover times reported.
@Suite("Several nodes")
struct SeveralNodesTests {
    static let nodes = [8081, 8082, 8083].map { ServerAddress(host: "127.0.0.1", port: $0) }

    static func socket(_ port: Int, _ path: String = "/sessions/ABC234/player/u1?token=tok") -> SocketURL {
        SocketURL(secure: false, host: "127.0.0.1", port: port, path: path)
    }

    static let welcome = ServerMessage.welcome(Welcome(playerId: PlayerID("p1"), resumeToken: "r1",
                                                       lobby: PhoneJourneyTests.lobbySnapshot()))

    /// A phone making its calls to `nodes[server]`, walked to ready on the socket `websocketURL` named, welcomed.
    static func readyPhone(server: Int, websocketURL: String) -> PhoneJourney {
        var journey = PhoneJourney(identity: PhoneIdentity.make(index: 0, runTag: "t"), typedCode: "abc-234",
                                   audio: PhoneJourneyTests.audio, mode: .play, servers: nodes, server: server)
        _ = PhoneJourneyTests.walkToReady(&journey, websocketURL: websocketURL)
        _ = journey.received(welcome, now: .seconds(14))
        return journey
    }

    @Test("a websocketURL or 4101 reason resolves like new URL(u, base): path or absolute, http→ws, https→wss, token set")
    func resolve() throws {
        let base = try #require(ServerAddress(host: "127.0.0.1", port: 8082).url)
        #expect(SocketURL.resolve("/sessions/ABC234/player/u1", against: base, token: "tok") == Self.socket(8082))
        #expect(SocketURL.resolve("http://127.0.0.1:8083/sessions/ABC234/player/u1", against: base, token: "tok")
                == Self.socket(8083))
        #expect(SocketURL.resolve("https://pong.example/sessions/ABC234/player/u1", against: base, token: "tok")
                == SocketURL(secure: true, host: "pong.example", port: 443, path: "/sessions/ABC234/player/u1?token=tok"))
        #expect(SocketURL.resolve("http://node2.example/s", against: base, token: "t")?.port == 80)
        // A 4101's reason, against the socket it closed: absolute ws, or a path on the same node; no token in it
        // (and one that came is replaced).
        let current = try #require(Self.socket(8081).url)
        #expect(SocketURL.resolve("ws://10.0.0.7:9000/sessions/ABC234/player/u1", against: current, token: "tok")
                == SocketURL(secure: false, host: "10.0.0.7", port: 9000, path: "/sessions/ABC234/player/u1?token=tok"))
        #expect(SocketURL.resolve("wss://10.0.0.7/x?token=old&a=1", against: current, token: "new")
                == SocketURL(secure: true, host: "10.0.0.7", port: 443, path: "/x?a=1&token=new"))
        #expect(SocketURL.resolve("/sessions/ABC234/player/u1", against: current, token: "tok") == Self.socket(8081))
        #expect(SocketURL.resolve("ftp://127.0.0.1/x", against: base, token: "t") == nil)
        #expect(SocketURL.resolve("/x", against: nil, token: "t") == nil, "a path needs a base")
        #expect(Self.socket(8083).description == "ws://127.0.0.1:8083/sessions/ABC234/player/u1?token=tok")
    }

    @Test("session i's host calls node i mod N; its phones take the nodes in turn from there (joins on non-owners)")
    func spread() {
        #expect((0..<4).map { ServerSpread.host(session: $0, servers: 3) } == [0, 1, 2, 0])
        #expect((0..<4).map { ServerSpread.phone(session: 0, seat: $0, servers: 3) } == [0, 1, 2, 0])
        #expect((0..<4).map { ServerSpread.phone(session: 1, seat: $0, servers: 3) } == [1, 2, 0, 1])
        #expect((0..<4).map { ServerSpread.phone(session: 5, seat: $0, servers: 1) } == [0, 0, 0, 0], "one node")
        // The host's attempts at start/end move on to the next node when its own does not answer.
        #expect((0..<3).map { RunCoordinator.server(Self.nodes, session: 1, attempt: $0).port } == [8082, 8083, 8081])
    }

    @Test("a join on one node answering the owner's absolute URL opens the socket there")
    func joinRedirect() {
        var journey = PhoneJourney(identity: PhoneIdentity.make(index: 0, runTag: "t"), typedCode: "abc-234",
                                   audio: PhoneJourneyTests.audio, mode: .play, servers: Self.nodes, server: 1)
        let steps = PhoneJourneyTests.walkToReady(&journey, websocketURL: "http://127.0.0.1:8083/sessions/ABC234/player/u1")
        #expect(steps[3] == [.connect(Self.socket(8083))])
        #expect(journey.server == 1, "HTTP calls stay on the phone's node")
    }

    @Test("a 4101 is followed at once to its reason's URL with hello {resumeToken}; the sixth in a row is a drop")
    func moved() {
        var journey = Self.readyPhone(server: 0, websocketURL: "/sessions/ABC234/player/u1")
        #expect(journey.socketURL == Self.socket(8081))
        #expect(journey.socketClosed(code: 4101, reason: "http://127.0.0.1:8082/sessions/ABC234/player/u1",
                                     now: .seconds(20))
                == [.followedMove(to: "127.0.0.1:8082"), .pauseAudio, .connect(Self.socket(8082))])
        #expect(journey.socketOpened(now: .seconds(20.1)) == [.send(.hello(.init(resumeToken: "r1"))), .resumeAudio],
                "a move is no reconnect")
        #expect(journey.received(Self.welcome, now: .seconds(20.2)) == [], "a planned move is no failover")
        #expect(journey.welcomedNode == "127.0.0.1:8082")
        for n in 0..<PhoneJourney.maxConsecutiveMoves {
            let port = n % 2 == 0 ? 8083 : 8082
            #expect(journey.socketClosed(code: 4101, reason: "ws://127.0.0.1:\(port)/sessions/ABC234/player/u1",
                                         now: .seconds(21)).last == .connect(Self.socket(port)))
            _ = journey.socketOpened(now: .seconds(21))
        }
        #expect(journey.socketClosed(code: 4101, reason: "ws://127.0.0.1:8081/sessions/ABC234/player/u1", now: .seconds(22))
                == [.countError("moved_too_often"), .countError("close_4101"), .pauseAudio,
                    .schedule(.reconnect, at: .seconds(22.25))])
        #expect(journey.step != .finished)
    }

    @Test("a lost node: the same socket is refused, the phone asks the next nodes (join again) and resumes there")
    func failover() {
        var journey = Self.readyPhone(server: 1, websocketURL: "http://127.0.0.1:8083/sessions/ABC234/player/u1")
        #expect(journey.welcomedNode == "127.0.0.1:8083")
        #expect(journey.socketClosed(code: nil, now: .seconds(30))
                == [.countError("socket_dropped"), .pauseAudio, .schedule(.reconnect, at: .seconds(30.25))])
        #expect(journey.timer(.reconnect, now: .seconds(30.25)) == [.connect(Self.socket(8083))])
        // Refused: ask the next node after the backoff's next delay.
        #expect(journey.socketClosed(code: nil, now: .seconds(30.25))
                == [.pauseAudio, .schedule(.retryHTTP, at: .seconds(30.75))])
        #expect(journey.timer(.retryHTTP, now: .seconds(30.75)) == [.http(.join(code: "abc-234"), token: "tok")])
        #expect(journey.server == 2)
        // That node is the dead one too: on to the next.
        #expect(journey.httpFailed("refused", now: .seconds(31))
                == [.countError("http_transport"), .schedule(.retryHTTP, at: .seconds(32))])
        #expect(journey.server == 0)
        _ = journey.timer(.retryHTTP, now: .seconds(32))
        #expect(journey.httpReplied(status: 200, body: PhoneJourneyTests.body(
            #"{"playerId":"p1","websocketURL":"http://127.0.0.1:8081/sessions/ABC234/player/u1","resumeToken":"r2"}"#),
                                    retryAfter: nil, now: .seconds(32)) == [.connect(Self.socket(8081))])
        #expect(journey.socketOpened(now: .seconds(32.25))
                == [.send(.hello(.init(resumeToken: "r2"))), .reconnected, .resumeAudio])
        #expect(journey.received(Self.welcome, now: .seconds(32.5))
                == [.resumed(afterSeconds: 2.5, restart: false), .failedOver(afterSeconds: 2.5)])
        #expect(!journey.isLost && journey.welcomedNode == "127.0.0.1:8081")
    }

    @Test("a first socket refused: one node fails the journey, with several the phone asks the next node")
    func firstSocketRefused() {
        for nodes in [[Self.nodes[0]], Self.nodes] {
            var fresh = PhoneJourney(identity: PhoneIdentity.make(index: 0, runTag: "t"), typedCode: "abc-234",
                                     audio: PhoneJourneyTests.audio, mode: .play, servers: nodes, server: 0)
            _ = fresh.start(scheduledStart: .seconds(0))
            _ = fresh.httpReplied(status: 201, body: PhoneJourneyTests.body(#"{"userId":"u","token":"tok"}"#),
                                  retryAfter: nil, now: .seconds(0))
            _ = fresh.httpReplied(status: 200, body: PhoneJourneyTests.body(
                #"{"userId":"u","displayName":"a","photoURL":null,"guest":true}"#), retryAfter: nil, now: .seconds(0))
            _ = fresh.httpReplied(status: 200, body: PhoneJourneyTests.body(
                #"{"playerId":"p1","websocketURL":"/sessions/ABC234/player/u1","resumeToken":"r1"}"#),
                                  retryAfter: nil, now: .seconds(1))
            let refused = fresh.socketClosed(code: nil, now: .seconds(2))
            if nodes.count == 1 {
                #expect(refused == [.finished(.socketRefused("the player socket could not be opened"))])
            } else {
                #expect(refused == [.schedule(.retryHTTP, at: .seconds(2.25))])
                #expect(fresh.timer(.retryHTTP, now: .seconds(2.25)) == [.http(.join(code: "abc-234"), token: "tok")])
                #expect(fresh.server == 1 && !fresh.isLost, "not a loss: the phone was never connected")
            }
        }
    }

    @Test("a phone not back on any node within the failover limit fails, and is counted as lost")
    func failoverLimit() {
        var journey = Self.readyPhone(server: 0, websocketURL: "/sessions/ABC234/player/u1")
        journey.failoverLimit = 2
        _ = journey.socketClosed(code: nil, now: .seconds(30))
        _ = journey.timer(.reconnect, now: .seconds(30.25))
        _ = journey.socketClosed(code: nil, now: .seconds(30.25))
        _ = journey.timer(.retryHTTP, now: .seconds(30.75))
        let actions = journey.httpFailed("refused", now: .seconds(33))
        #expect(actions.contains(.countError("not_back")))
        #expect(actions.last == .finished(.timeout("not back on any node 2 s after the socket was lost")))
        #expect(journey.isLost)
    }

    @Test("a 503 session_unavailable is waited out for its Retry-After, a bounded number of times")
    func unavailable() {
        var journey = PhoneJourney(identity: PhoneIdentity.make(index: 0, runTag: "t"), typedCode: "abc-234",
                                   audio: PhoneJourneyTests.audio, mode: .play, servers: Self.nodes, server: 1)
        journey.maxUnavailableRetries = 2
        _ = journey.start(scheduledStart: .seconds(0))
        _ = journey.httpReplied(status: 201, body: PhoneJourneyTests.body(#"{"userId":"u","token":"t"}"#),
                                retryAfter: nil, now: .seconds(0))
        _ = journey.httpReplied(status: 200, body: PhoneJourneyTests.body(
            #"{"userId":"u","displayName":"a","photoURL":null,"guest":true}"#), retryAfter: nil, now: .seconds(0))
        let busy = PhoneJourneyTests.body(#"{"error":{"code":"session_unavailable","message":"m"}}"#)
        #expect(journey.httpReplied(status: 503, body: busy, retryAfter: 2, now: .seconds(1))
                == [.countError("session_unavailable"), .schedule(.retryHTTP, at: .seconds(3))])
        #expect(journey.timer(.retryHTTP, now: .seconds(3)) == [.http(.join(code: "abc-234"), token: "t")])
        let store = PhoneJourneyTests.body(#"{"error":{"code":"store_unavailable","message":"m"}}"#)
        #expect(journey.httpReplied(status: 503, body: store, retryAfter: nil, now: .seconds(3))
                == [.countError("store_unavailable"), .schedule(.retryHTTP, at: .seconds(4))])
        _ = journey.timer(.retryHTTP, now: .seconds(4))
        #expect(journey.httpReplied(status: 503, body: store, retryAfter: 1, now: .seconds(4)).last
                == .finished(.http("POST /sessions/abc-234/join answered 503 store_unavailable 3 times")))
    }

    @Test("the report gives joins and phones per node, 4101s, failovers p50/p95/max and phones never back")
    func report() {
        let stats = SimStats()
        stats.update { $0.servers = ["127.0.0.1:8081", "127.0.0.1:8082"] }
        stats.joinAnswered(by: Self.nodes[1])
        stats.joinAnswered(by: Self.nodes[1])
        stats.phoneEnded(node: "127.0.0.1:8082", lost: false)
        stats.phoneEnded(node: "localhost:8081", lost: false)
        stats.phoneEnded(node: "127.0.0.1:8082", lost: true)
        stats.update { $0.moves = 3 }
        for second in 1...20 { stats.failedOver(afterSeconds: Double(second)) }
        let report = Report(stats.snapshot)
        let tail = Report.tail(stats.snapshot.failoverTime)
        #expect(abs((tail.p50 ?? 0) - 10_000) < 10 && abs((tail.p95 ?? 0) - 19_000) < 20
                && abs((tail.max ?? 0) - 20_000) < 20, "\(tail) (3 significant digits)")
        #expect(report.jsonLine.hasSuffix(#","nodes":{"joins":{"127.0.0.1:8081":0,"127.0.0.1:8082":2},"#
            + #""phonesAtEnd":{"127.0.0.1:8081":0,"127.0.0.1:8082":1,"localhost:8081":1},"moves4101":3,"failovers":20,"#
            + #""failoverMs":\#(tail.jsonObject),"neverBack":1}}"#), "\(report.jsonLine)")
        let table = Report.table(stats.snapshot, wallSeconds: 1)
        #expect(table.contains("joins per node   127.0.0.1:8081 0, 127.0.0.1:8082 2"))
        #expect(table.contains("never back       1"))
        #expect(Report(SimStats.Values()).nodes == nil, "one node, no 4101, no failover: no nodes key")
    }
}
