import BounceDetector
import Foundation
@testable import PongWire
import Testing
@testable import SessionHub

/// Live ingest over real sockets (part of the serialized "End to end" suite).
extension EndToEndTests {
    /// Sends `ready` (answered with `out_of_order` before the connection test) and waits for that answer: it runs on
    /// the session's queue behind every message and frame sent before it, so those have been handled.
    func handled(_ socket: TestWebSocketClient) async throws {
        try await socket.send(#"{"type":"ready"}"#)
        let answer = await socket.next(where: { jsonObject($0)["code"] as? String == "out_of_order" })
        #expect(answer != nil)
    }

    /// A guest host's session with one guest player whose socket said hello and granted both permissions (the
    /// server has handled the grant when this returns).
    func seatedPlayer(on server: HubTestServer) async throws
        -> (code: String, player: String, phone: TestPhone, dashboard: TestWebSocketClient,
            resume: (token: String, path: String))
    {
        let session = try await server.hostSession()
        let (code, dashboardToken) = (session.code, session.hostToken)
        let dashboard = try await TestWebSocketClient.connect(
            port: server.port, path: "/sessions/\(code)/dashboard?token=\(dashboardToken)")
        let (token, user) = try await server.joinGuest(named: "Ari", code: code)
        let socket = try await TestWebSocketClient.connect(
            port: server.port, path: "/sessions/\(code)/player/\(user)?token=\(token)")
        try await socket.send(#"{"type":"hello"}"#)
        let welcome = jsonObject(await socket.next(type: "welcome"))
        let player = try #require(welcome["playerId"] as? String)
        let resume = try #require(welcome["resumeToken"] as? String)
        try await socket.send(#"{"type":"permissions","camera":"granted","microphone":"granted"}"#)
        // The callers' next step is `POST /streams/start` on another connection: it must not overtake the grant.
        try await handled(socket)
        return (code, player, TestPhone(server: server, token: token, code: code, socket: socket), dashboard,
                (resume, "/sessions/\(code)/player/\(user)?token=\(token)"))
    }

    @Test("the dashboard gets each player's stream report with its playerId (upload rate, state); the player's own has none")
    func dashboardStreamReports() async throws {
        let server = try await HubTestServer.start()
        let (code, player, phone, dashboard, _) = try await seatedPlayer(on: server)
        let (packets, preSkip) = try ImpactAudio.opusPackets(ImpactAudio.scene(seconds: 2, onsets: [0.5]))
        let start = try await server.call("POST", "/streams/start", token: phone.token, json: """
            {"sessionCode":"\(code)","video":null,"audio":{"codec":"opus","sampleRate":48000,"channels":1,\
            "preSkip":\(preSkip)}}
            """)
        #expect(start.status == 200)
        for (index, packet) in packets.enumerated() {
            try await phone.socket.send(binary: TestPhone.frame(
                kind: 1, codec: 1, sequence: UInt32(index), captureTime: UInt64(index) * 20_000, payload: packet))
        }
        let measured: (String) -> Bool = {
            let message = jsonObject($0)
            return message["type"] as? String == "stream" && (message["uploadKbps"] as? Double ?? 0) > 0
        }
        let atDashboard = jsonObject(await dashboard.next(where: measured))
        #expect(atDashboard["playerId"] as? String == player)
        #expect(atDashboard["state"] as? String == "live")
        let own = jsonObject(await phone.socket.next(where: measured))
        #expect(own["state"] as? String == "live")
        #expect(own["playerId"] == nil)
        try await server.stop()
    }

    @Test("streamed Opus: every bounce reaches the phone and the dashboard, timed to the ms, and is stored")
    func bounces() async throws {
        let server = try await HubTestServer.start()
        let (code, player, phone, dashboard, _) = try await seatedPlayer(on: server)
        let onsets = [0.8, 1.4, 1.44, 2.3]
        let (packets, preSkip) = try ImpactAudio.opusPackets(ImpactAudio.scene(seconds: 3, onsets: onsets))
        let start = try await server.call("POST", "/streams/start", token: phone.token, json: """
            {"sessionCode":"\(code)","video":null,"audio":{"codec":"opus","sampleRate":48000,"channels":1,\
            "preSkip":\(preSkip)}}
            """)
        #expect(start.status == 200)
        let base: UInt64 = 1_700_000_000_000_000
        for (index, packet) in packets.enumerated() {
            try await phone.socket.send(binary: TestPhone.frame(
                kind: 1, codec: 1, sequence: UInt32(index), captureTime: base + UInt64(index) * 20_000, payload: packet))
        }
        var heard: [[String: Any]] = []
        while heard.count < onsets.count, let text = await phone.socket.next(type: "bounce") {
            heard.append(jsonObject(text))
        }
        #expect(heard.count == onsets.count)
        for (bounce, onset) in zip(heard, onsets) {
            #expect(bounce["playerId"] as? String == player)
            #expect(abs((bounce["streamTime"] as? Double ?? 0) - onset) < 0.001, "\(bounce)")
            let capture = Double(bounce["captureTime"] as? Int64 ?? 0)
            #expect(abs(capture - (Double(base) + onset * 1e6)) < 1000, "the phone's clock at the onset, pre-skip out")
            #expect(bounce["kind"] as? String == "table")
            #expect((bounce["confidence"] as? Double ?? 0) > 0)
        }
        let atDashboard = jsonObject(await dashboard.next(type: "bounce"))
        #expect(atDashboard["playerId"] as? String == player)

        // The phone's monitor: live, audio only (no resolution or fps), a measured upload rate (once the meter
        // spans a second).
        let report = jsonObject(await phone.socket.next(where: {
            let message = jsonObject($0)
            return message["type"] as? String == "stream" && (message["uploadKbps"] as? Double ?? 0) > 0
        }))
        #expect(report["state"] as? String == "live")
        #expect(report["resolution"] is NSNull)
        #expect(report["fps"] is NSNull)
        #expect((report["uploadKbps"] as? Double ?? 0) > 0)

        try await server.stop()
        let stored = try server.hub.store.events(sessionCode: try #require(SessionCode(userInput: code)))
            .filter { $0.kind == .bounce }
        #expect(stored.count == onsets.count)
        #expect(stored.first?.playerId?.rawValue == player)
        #expect(stored.first.map { jsonObject($0.payload)["streamTime"] as? Double ?? 0 }.map { abs($0 - 0.8) < 0.001 } == true)
    }

    @Test("preSkip sent after streams/start, and a capture gap the phone's mic dropped: times stay on the phone's clock")
    func latePreSkipAndCaptureGap() async throws {
        let server = try await HubTestServer.start()
        let (code, _, phone, _, _) = try await seatedPlayer(on: server)
        let onsets = [0.8, 1.4, 2.3]
        let (packets, preSkip) = try ImpactAudio.opusPackets(ImpactAudio.scene(seconds: 3, onsets: onsets))
        let start = try await server.call("POST", "/streams/start", token: phone.token, json: """
            {"sessionCode":"\(code)","video":null,"audio":{"codec":"opus","sampleRate":48000,"channels":1}}
            """)
        #expect(start.status == 200)
        // A browser learns its pre-skip from its first encoded packet: it says so with that packet.
        try await phone.socket.send(#"{"type":"audio.preSkip","preSkip":\#(preSkip)}"#)
        // The microphone lost 120 ms after packet 50 (1.0 s): the encoder's timestamps skip it, the audio does not.
        let base: UInt64 = 1_700_000_000_000_000
        let gap: UInt64 = 120_000
        for (index, packet) in packets.enumerated() {
            let capture = base + UInt64(index) * 20_000 + (index >= 50 ? gap : 0)
            try await phone.socket.send(binary: TestPhone.frame(
                kind: 1, codec: 1, sequence: UInt32(index), captureTime: capture, payload: packet))
        }
        var heard: [[String: Any]] = []
        while heard.count < onsets.count, let text = await phone.socket.next(type: "bounce") {
            heard.append(jsonObject(text))
        }
        #expect(heard.count == onsets.count)
        for (bounce, onset) in zip(heard, onsets) {
            let shift = onset >= 1.0 ? Double(gap) / 1e6 : 0
            let capture = Double(bounce["captureTime"] as? Int64 ?? 0)
            #expect(abs(capture - (Double(base) + (onset + shift) * 1e6)) < 1000, "pre-skip out: \(bounce)")
            #expect(abs((bounce["streamTime"] as? Double ?? 0) - (onset + shift)) < 0.001,
                    "stream time on the phone's clock: \(bounce)")
        }
        let report = jsonObject(await phone.socket.next(where: {
            let message = jsonObject($0)
            return message["type"] as? String == "stream" && message["captureGaps"] != nil
        }))
        let gaps = report["captureGaps"] as? [String: Any]
        #expect(gaps?["count"] as? Int == 1)
        #expect(gaps?["ms"] as? Double == 120)
    }

    @Test("a stream that sends nothing fails with diagnostics (lobby and readiness too); frames make it live again")
    func streamFailure() async throws {
        let server = try await HubTestServer.start(streamMonitor: .quick(stall: .milliseconds(600)))
        let (code, _, phone, _, _) = try await seatedPlayer(on: server)
        let start = try await server.call("POST", "/streams/start", token: phone.token, json: """
            {"sessionCode":"\(code)","video":{"codec":"vp8","quality":"720p","fps":30},"audio":null}
            """)
        #expect(start.status == 200)
        // The failed track reaches the readiness checks and the `stream` report (in either order).
        var failed: [String: Any]?
        var readiness: [String: Any]?
        while failed == nil || readiness == nil, let text = await phone.socket.next() {
            guard case .text(let body) = text else { break }
            let message = jsonObject(body)
            if message["type"] as? String == "stream", message["state"] as? String == "failed" { failed = message }
            let checks = message["checks"] as? [[String: Any]] ?? []
            if checks.contains(where: { $0["message"] as? String == "Unable to start video stream" }) { readiness = message }
        }
        #expect((failed?["diagnostics"] as? [String])?.first == "Check camera permissions")
        #expect(readiness?["canBeReady"] as? Bool == false)

        // A VP8 key frame: live again, with its size.
        let keyFrame: [UInt8] = [0x50, 0x42, 0x00, 0x9d, 0x01, 0x2a, 0x00, 0x05, 0xd0, 0x02] + Array(repeating: 0, count: 200)
        try await phone.socket.send(binary: TestPhone.frame(kind: 2, codec: 2, sequence: 0, payload: keyFrame))
        let live = jsonObject(await phone.socket.next(where: { jsonObject($0)["state"] as? String == "live" }))
        #expect(live["resolution"] as? String == "1280x720")
        try await server.stop()
    }

    @Test("media errors: a frame of another codec, an undecodable packet; the stream goes on")
    func mediaErrors() async throws {
        let server = try await HubTestServer.start(mediaErrorInterval: .zero)  // every error sent
        let (code, _, phone, _, _) = try await seatedPlayer(on: server)
        _ = try await server.call("POST", "/streams/start", token: phone.token, json: """
            {"sessionCode":"\(code)","video":null,"audio":{"codec":"opus","sampleRate":48000,"channels":1}}
            """)
        try await phone.socket.send(binary: TestPhone.frame(kind: 1, codec: 2, sequence: 0, payload: [0xff, 0xf1, 0, 0]))
        let mismatch = jsonObject(await phone.socket.next(type: "error"))
        #expect(mismatch["code"] as? String == "codec_mismatch")
        try await phone.socket.send(binary: TestPhone.frame(kind: 1, codec: 1, sequence: 1, payload: [0xff, 0x00]))
        let undecodable = jsonObject(await phone.socket.next(type: "error"))
        #expect(undecodable["code"] as? String == "undecodable_media")
        try await phone.socket.send(binary: TestPhone.frame(kind: 2, codec: 1, sequence: 0, payload: [0, 0, 1, 0x65]))
        let notStarted = jsonObject(await phone.socket.next(type: "error"))
        #expect(notStarted["code"] as? String == "stream_not_started")
        let metrics = try await TestHTTPClient.request(.GET, port: server.metricsPort, path: "/metrics")
        #expect(metrics.body.contains(#"pongd_media_frames_rejected_total{code="codec_mismatch"} 1"#))
        #expect(metrics.body.contains(#"pongd_media_frames_rejected_total{code="undecodable_media"} 1"#))
        try await server.stop()
    }

    @Test("a phone whose socket is down is not failed; back, it gets its full timeout again")
    func reconnectingIsNotFailed() async throws {
        var monitor = StreamMonitor.Configuration.quick(stall: .milliseconds(400))
        monitor.startTimeout = monitor.stallTimeout
        let server = try await HubTestServer.start(streamMonitor: monitor)
        let (code, player, phone, dashboard, resume) = try await seatedPlayer(on: server)
        let audioOnly = """
            {"sessionCode":"\(code)","video":null,"audio":{"codec":"opus","sampleRate":48000,"channels":1}}
            """
        _ = try await server.call("POST", "/streams/start", token: phone.token, json: audioOnly)
        try await phone.socket.send(binary: TestPhone.frame(kind: 1, codec: 1, sequence: 0,
                                                            payload: TestPhone.silentOpusPacket))
        _ = await phone.socket.next(where: { jsonObject($0)["state"] as? String == "live" })
        await phone.socket.drop()
        let seat = { (lobby: [String: Any]) in
            (lobby["players"] as? [[String: Any]])?.first { $0["playerId"] as? String == player }
        }
        _ = await dashboard.next(where: { seat(jsonObject($0))?["connection"] as? String == "reconnecting" })

        // A second player starts a stream after the drop and sends nothing: once it has failed (start timeout = stall
        // timeout), the monitor has ticked past a stall timeout since the first phone's last frame, with that
        // phone's socket down (both players are ticked in one pass).
        let (token, user) = try await server.joinGuest(named: "Bo", code: code)
        let other = try await TestWebSocketClient.connect(
            port: server.port, path: "/sessions/\(code)/player/\(user)?token=\(token)")
        try await other.send(#"{"type":"hello"}"#)
        _ = await other.next(type: "welcome")
        try await other.send(#"{"type":"permissions","camera":"granted","microphone":"granted"}"#)
        try await handled(other)
        _ = try await server.call("POST", "/streams/start", token: token, json: audioOnly)
        _ = await other.next(where: { jsonObject($0)["state"] as? String == "failed" })
        let audio = { () async throws -> String? in
            let lobby = try await server.call("GET", "/sessions/\(code)", token: token)
            return (seat(lobby.body)?["stream"] as? [String: Any])?["audio"] as? String
        }
        #expect(try await audio() == "live")

        let back = try await TestWebSocketClient.connect(port: server.port, path: resume.path)
        try await back.send(#"{"type":"hello","resumeToken":"\#(resume.token)"}"#)
        let failed = await back.next(where: { jsonObject($0)["state"] as? String == "failed" })
        #expect(jsonObject(failed)["type"] as? String == "stream")
        #expect(try await audio() == "failed")
        try await server.stop()
    }
}

extension StreamMonitor.Configuration {
    /// Timeouts short enough for a test to see a failure: start 300 ms, `stall`, a report every 200 ms.
    static func quick(stall: Duration) -> Self {
        var configuration = Self()
        configuration.startTimeout = .milliseconds(300)
        configuration.stallTimeout = stall
        configuration.reportInterval = .milliseconds(200)
        return configuration
    }
}
