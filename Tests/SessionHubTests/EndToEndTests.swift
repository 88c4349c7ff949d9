import Foundation
import Testing
@testable import SessionHub

/// The whole journey over real sockets: a host, two players and the dashboard; and a restart.
///
/// Serialized, and every test that starts a server belongs here. The client hands frames that arrive in the same
/// read as the 101 response to its frame decoder, so a socket's first message (its `welcome`) can be awaited, and a
/// socket refused at once delivers its `error` and close code too.
@Suite("End to end", .serialized, .timeLimit(.minutes(1)))
struct EndToEndTests {
    /// The `players` array of a lobby message, keyed by playerId.
    private func players(_ lobby: [String: Any]) -> [String: [String: Any]] {
        var result: [String: [String: Any]] = [:]
        for player in lobby["players"] as? [[String: Any]] ?? [] {
            if let id = player["playerId"] as? String { result[id] = player }
        }
        return result
    }

    /// Waits for a lobby message matching `condition`.
    private func lobby(on client: TestWebSocketClient, where condition: ([String: Any]) -> Bool) async -> [String: Any]? {
        while let text = await client.next(type: "lobby") {
            let lobby = jsonObject(text)
            if condition(lobby) { return lobby }
        }
        return nil
    }

    @Test("sign-up → join → lobby → drop and resume → end, with a host, two players and the dashboard")
    func journey() async throws {
        let server = try await HubTestServer.start()

        // The host signs up and creates a session.
        let host = try await server.call("POST", "/auth/signup", json:
            #"{"name":"Hana","email":"hana@example.com","password":"ping pong rally 2026","acceptTerms":true}"#)
        #expect(host.status == 201)
        let hostToken = try #require(host.body["token"] as? String)
        _ = try await server.call("POST", "/users/profile", token: hostToken, json: #"{"displayName":"Hana"}"#)
        let created = try await server.call("POST", "/sessions", token: hostToken,
                                            json: #"{"mode":"fullGame","pointsToWin":21}"#)
        #expect(created.status == 201)
        let code = try #require(created.body["code"] as? String)
        let display = try #require(created.body["displayCode"] as? String)
        #expect(display.count == 7 && display.replacingOccurrences(of: "-", with: "") == code)
        #expect(created.body["joinURL"] as? String == "/join/\(code)")
        let dashboardToken = try #require(created.body["hostToken"] as? String)

        let dashboard = try await TestWebSocketClient.connect(
            port: server.port, path: "/sessions/\(code)/dashboard?token=\(dashboardToken)")

        // Player A signs up, player B is a guest; both type the code in lower case with the dash.
        let a = try await server.call("POST", "/auth/signup", json:
            #"{"name":"Ari","email":"ari@example.com","password":"backhand loop 2026","acceptTerms":true}"#)
        let b = try await server.call("POST", "/auth/guest", json: "{}")
        #expect(b.body["guest"] as? Bool == true)
        var sockets: [TestWebSocketClient] = []
        var seats: [(token: String, user: String, player: String, resume: String)] = []
        for (account, name) in [(a, "Ari"), (b, "Bea")] {
            let token = try #require(account.body["token"] as? String)
            let user = try #require(account.body["userId"] as? String)
            let profile = try await server.call("POST", "/users/profile", token: token,
                                                json: #"{"displayName":"\#(name)"}"#)
            #expect(profile.status == 200)
            let join = try await server.call("POST", "/sessions/\(display.lowercased())/join", token: token)
            #expect(join.status == 200)
            let path = try #require(join.body["websocketURL"] as? String)
            #expect(path == "/sessions/\(code)/player/\(user)")
            let socket = try await TestWebSocketClient.connect(port: server.port, path: "\(path)?token=\(token)")
            try await socket.send(#"{"type":"hello"}"#)
            let welcome = jsonObject(await socket.next(type: "welcome"))
            let player = try #require(welcome["playerId"] as? String)
            #expect(player == join.body["playerId"] as? String)
            sockets.append(socket)
            seats.append((token, user, player, try #require(welcome["resumeToken"] as? String)))
        }

        // The dashboard's `welcome` (sent with its 101) shows the host and the game.
        let dashboardWelcome = jsonObject(await dashboard.next(type: "welcome"))
        let firstLobby = dashboardWelcome["lobby"] as? [String: Any] ?? [:]
        #expect((firstLobby["host"] as? [String: Any])?["name"] as? String == "Hana")
        #expect((firstLobby["game"] as? [String: Any])?["pointsToWin"] as? Int == 21)

        // The dashboard sees both players, by name, connected.
        let both = await lobby(on: dashboard) { players($0).count == 2 && players($0).values.allSatisfy {
            $0["connection"] as? String == "connected" } }
        #expect(Set(players(both ?? [:]).values.compactMap { $0["name"] as? String }) == ["Ari", "Bea"])

        // A bad message gets an error and the socket stays open.
        try await sockets[1].send(#"{"type":"ready","oops":"#)
        let error = jsonObject(await sockets[1].next(type: "error"))
        #expect(error["code"] as? String == "malformed_json")

        // Player A's phone drops: the lobby shows A reconnecting.
        await sockets[0].drop()
        let dropped = await lobby(on: dashboard) { players($0)[seats[0].player]?["connection"] as? String == "reconnecting" }
        #expect(dropped != nil)

        // A resumes on a new socket with its resume token: same seat, connected again.
        let resumed = try await TestWebSocketClient.connect(
            port: server.port, path: "/sessions/\(code)/player/\(seats[0].user)?token=\(seats[0].token)")
        try await resumed.send(#"{"type":"hello","resumeToken":"\#(seats[0].resume)"}"#)
        let again = jsonObject(await resumed.next(type: "welcome"))
        #expect(again["playerId"] as? String == seats[0].player)
        let back = await lobby(on: dashboard) { players($0)[seats[0].player]?["connection"] as? String == "connected" }
        #expect(back != nil)

        // Only the host may end; then everyone gets sessionEnded and a final close.
        let notHost = try await server.call("POST", "/sessions/\(code)/end", token: seats[1].token)
        #expect(notHost.status == 403)
        let end = try await server.call("POST", "/sessions/\(code)/end", token: hostToken)
        #expect(end.status == 200)
        for client in [resumed, sockets[1], dashboard] {
            let ended = jsonObject(await client.next(type: "sessionEnded"))
            #expect(ended["reason"] as? String != nil)
            let close = await client.closeCode()
            #expect(close.map { (4000...4099).contains($0) } == true)
        }
        let gone = try await server.call("GET", "/sessions/\(code)")
        #expect(gone.status == 404)
        #expect((gone.body["error"] as? [String: Any])?["message"] as? String == "Session not found or expired")

        // Metrics counted what happened.
        let metrics = try await TestHTTPClient.request(.GET, port: server.metricsPort, path: "/metrics").body
        #expect(metrics.contains("pongd_joins_total 2"))
        #expect(metrics.contains(#"pongd_errors_total{code="malformed_json"} 1"#))
        #expect(metrics.contains(#"pongd_errors_total{code="not_host"} 1"#))
        #expect(metrics.contains("pongd_live_sessions 0"))
        try await server.stop()
    }

    @Test("bad input gets clear errors: unknown code, no token, forged token, wrong player path, rate limit")
    func errors() async throws {
        let server = try await HubTestServer.start(joinBurst: 3)
        let guest = try await server.call("POST", "/auth/guest")
        let token = try #require(guest.body["token"] as? String)
        #expect(try await server.call("POST", "/sessions", json: #"{"mode":"rally","pointsToWin":11}"#).status == 401)
        #expect(try await server.call("POST", "/sessions", token: token + "x",
                                      json: #"{"mode":"rally","pointsToWin":11}"#).status == 401)
        let badBody = try await server.call("POST", "/sessions", token: token, json: #"{"mode":"tennis","pointsToWin":11}"#)
        #expect(badBody.status == 400)
        #expect((badBody.body["error"] as? [String: Any])?["code"] as? String == "invalid_field")
        var statuses: [Int] = []
        for _ in 0..<4 { statuses.append(try await server.call("POST", "/sessions/ZZZ-222/join", token: token).status) }
        #expect(statuses == [404, 404, 404, 429])
        let limited = try await server.call("POST", "/sessions/ZZZ-222/join", token: token)
        #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1)

        let created = try await server.call("POST", "/sessions", token: token, json: #"{"mode":"rally","pointsToWin":11}"#)
        let code = try #require(created.body["code"] as? String)
        // A token for another user on a player path: refused and closed, never welcomed. (The server sends an
        // `error` and close 4001 at once; when both land with the upgrade response NIO's client may drop them,
        // so the code is checked only when it arrives.)
        let intruder = try await TestWebSocketClient.connect(
            port: server.port, path: "/sessions/\(code)/player/someone-else?token=\(token)")
        var welcomed = false
        var closeCode: UInt16?
        while let event = await intruder.next() {
            if case .text(let text) = event, text.contains(#""type":"welcome""#) { welcomed = true }
            if case .closed(let code?) = event { closeCode = code }
        }
        #expect(!welcomed)
        #expect(closeCode == nil || closeCode == 4001)
        try await server.stop()
    }

    @Test("an oversized text message gets an error and the socket stays; a flood is closed with 4008")
    func oversizedAndFlood() async throws {
        let server = try await HubTestServer.start()
        let session = try await server.hostSession()
        let (token, user, code) = (session.token, session.userId, session.code)
        _ = try await server.call("POST", "/sessions/\(code)/join", token: token)
        let socket = try await TestWebSocketClient.connect(
            port: server.port, path: "/sessions/\(code)/player/\(user)?token=\(token)")
        try await socket.send(#"{"type":"hello"}"#)
        _ = await socket.next(type: "welcome")

        try await socket.send(#"{"type":"battery","note":""# + String(repeating: "x", count: 70_000) + #""}"#)
        let tooLarge = jsonObject(await socket.next(type: "error"))
        #expect(tooLarge["code"] as? String == "message_too_large")
        try await socket.send(#"{"type":"battery","level":50,"charging":true}"#)
        #expect(await socket.next(type: "readiness") != nil, "the socket still works")

        for _ in 0..<200 { try? await socket.send(#"{"type":"battery","level":50,"charging":true}"#) }
        #expect(await socket.closeCode() == 4008)
        try await server.stop()
    }

    @Test("a restart on the same data folder keeps accounts, profiles, photos and the live session; players resume")
    func restart() async throws {
        let first = try await HubTestServer.start()
        let signup = try await first.call("POST", "/auth/signup", json:
            #"{"name":"Ari","email":"ari@example.com","password":"forehand smash 99","acceptTerms":true}"#)
        let token = try #require(signup.body["token"] as? String)
        let user = try #require(signup.body["userId"] as? String)
        let png = Data(PhotoFixtures.png(width: 16, height: 16))
        let profile = try await first.call("POST", "/users/profile", token: token,
                                           json: #"{"displayName":"Ari","photo":"\#(png.base64EncodedString())"}"#)
        let photoURL = try #require(profile.body["photoURL"] as? String)
        let created = try await first.call("POST", "/sessions", token: token, json: #"{"mode":"rally","pointsToWin":11}"#)
        let code = try #require(created.body["code"] as? String)
        let join = try await first.call("POST", "/sessions/\(code)/join", token: token)
        let socket = try await TestWebSocketClient.connect(
            port: first.port, path: "/sessions/\(code)/player/\(user)?token=\(token)")
        try await socket.send(#"{"type":"hello"}"#)
        let welcome = jsonObject(await socket.next(type: "welcome"))
        let resumeToken = try #require(welcome["resumeToken"] as? String)
        try await socket.send(#"{"type":"permissions","camera":"granted","microphone":"granted"}"#)
        try await socket.send(#"{"type":"streamConfig","quality":"720p","fps":30}"#)
        _ = await socket.next(type: "readiness")
        _ = await socket.next(type: "readiness")
        let started = try await first.call("POST", "/streams/start", token: token, json: """
            {"sessionCode":"\(code)","video":null,"audio":{"codec":"opus","sampleRate":48000,"channels":1,"preSkip":312}}
            """)
        #expect(started.status == 200)
        try await first.stop()

        let second = try await HubTestServer.start(dataDirectory: first.dataDirectory)
        let login = try await second.call("POST", "/auth/login",
                                          json: #"{"email":"ARI@example.com","password":"forehand smash 99"}"#)
        #expect(login.status == 200)
        let me = try await second.call("GET", "/users/me", token: token)
        #expect(me.body["displayName"] as? String == "Ari")
        #expect(me.body["photoURL"] as? String == photoURL)
        let photo = try await TestHTTPClient.request(.GET, port: second.port, path: photoURL)
        #expect(photo.status == 200 && photo.headers["Content-Type"].first == "image/png")

        let lobby = try await second.call("GET", "/sessions/\(code)", token: token)
        #expect(lobby.status == 200)
        let seat = (lobby.body["players"] as? [[String: Any]])?.first
        #expect(seat?["name"] as? String == "Ari")
        #expect(seat?["connection"] as? String == "reconnecting")

        let resumed = try await TestWebSocketClient.connect(
            port: second.port, path: "/sessions/\(code)/player/\(user)?token=\(token)")
        try await resumed.send(#"{"type":"hello","resumeToken":"\#(resumeToken)"}"#)
        let again = jsonObject(await resumed.next(type: "welcome"))
        #expect(again["playerId"] as? String == join.body["playerId"] as? String)
        // The journey resumed where it was: the stream step is done, so the connection test may start at once.
        try await resumed.send(#"{"type":"connectionTest.start"}"#)
        let next = jsonObject(await resumed.next(where: { $0.contains(#""type":"probe.ping""#) || $0.contains(#""type":"error""#) }))
        #expect(next["type"] as? String == "probe.ping", "\(next)")
        // The audio track's decoder was reopened from the kept streams/start body: the next frame makes it live.
        try await resumed.send(binary: TestPhone.frame(kind: 1, codec: 1, sequence: 9, payload: TestPhone.silentOpusPacket))
        let live = await resumed.next(where: { text in
            let message = jsonObject(text)
            let players = message["players"] as? [[String: Any]] ?? []
            return message["type"] as? String == "error"
                || players.contains { ($0["stream"] as? [String: Any])?["audio"] as? String == "live" }
        })
        #expect(jsonObject(live)["type"] as? String == "lobby", "\(live ?? "nothing")")
        try await second.stop()
    }

    @Test("two phones run the connection test, become ready, and the host starts the game")
    func readyAndStart() async throws {
        let server = try await HubTestServer.start()
        let session = try await server.hostSession()
        let (hostToken, code) = (session.token, session.code)

        var phones: [TestPhone] = []
        for name in ["Ari", "Bea"] {
            let (token, user) = try await server.joinGuest(named: name, code: code)
            let socket = try await TestWebSocketClient.connect(
                port: server.port, path: "/sessions/\(code)/player/\(user)?token=\(token)")
            try await socket.send(#"{"type":"hello"}"#)
            _ = await socket.next(type: "welcome")
            phones.append(TestPhone(server: server, token: token, code: code, socket: socket))
        }

        // Ready needs a connection test: before it, `ready` is refused.
        try await phones[0].socket.send(#"{"type":"ready"}"#)
        let early = jsonObject(await phones[0].socket.next(type: "error"))
        #expect(early["code"] as? String != nil)
        #expect(try await server.call("POST", "/sessions/\(code)/start", token: hostToken).status == 409)

        for phone in phones {
            let result = try await phone.walkToTested()
            // The figures depend on the machine (timings belong in Benchmarks/): check the result's shape only.
            #expect(["good", "fair", "poor"].contains(result["grade"] as? String ?? ""), "\(result)")
            #expect((result["uploadMbps"] as? Double ?? 0) > 0)
            #expect((result["rttMs"] as? [String: Any])?["median"] is Double)
            try await phone.socket.send(#"{"type":"ready"}"#)
            var ready = false
            while let text = await phone.socket.next(type: "readiness") {
                let readiness = jsonObject(text)
                if readiness["canBeReady"] as? Bool == true {
                    ready = true
                    break
                }
            }
            #expect(ready)
        }
        let start = try await server.call("POST", "/sessions/\(code)/start", token: hostToken)
        #expect(start.status == 200)
        let lobby = try await server.call("GET", "/sessions/\(code)", token: hostToken)
        #expect(lobby.body["state"] as? String == "playing")
        #expect((lobby.body["players"] as? [[String: Any]])?.allSatisfy { $0["ready"] as? Bool == true } == true)
        try await server.stop()
    }
}
