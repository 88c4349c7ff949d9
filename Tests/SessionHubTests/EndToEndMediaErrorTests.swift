import Foundation
import Testing
@testable import SessionHub

/// Rejected media over real sockets (part of the serialized "End to end" suite).
extension EndToEndTests {
    /// The lobby's `stream` of the session's only player.
    private func playerStream(on server: HubTestServer, code: String, token: String) async throws -> [String: Any] {
        let lobby = try await server.call("GET", "/sessions/\(code)", token: token)
        return (lobby.body["players"] as? [[String: Any]])?.first?["stream"] as? [String: Any] ?? [:]
    }

    @Test("a rejected frame counts for nothing: its track stays starting and no media frame is counted")
    func rejectedFramesDoNotCount() async throws {
        let server = try await HubTestServer.start()
        let (code, _, phone, _, _) = try await seatedPlayer(on: server)
        _ = try await server.call("POST", "/streams/start", token: phone.token, json: """
            {"sessionCode":"\(code)","video":{"codec":"vp8","quality":"720p","fps":30},\
            "audio":{"codec":"opus","sampleRate":48000,"channels":1}}
            """)
        // H.264 on the VP8 track, then a packet libopus rejects on the Opus track.
        try await phone.socket.send(binary: TestPhone.frame(kind: 2, codec: 1, sequence: 0, payload: [0, 0, 1, 0x65]))
        try await phone.socket.send(binary: TestPhone.frame(kind: 1, codec: 1, sequence: 0, payload: [0xff, 0x00]))
        try await handled(phone.socket)
        let stream = try await playerStream(on: server, code: code, token: phone.token)
        #expect(stream["video"] as? String == "starting")
        #expect(stream["audio"] as? String == "starting")
        var metrics = try await TestHTTPClient.request(.GET, port: server.metricsPort, path: "/metrics").body
        #expect(metrics.contains(#"pongd_media_frames_total{kind="video"} 0"#))
        #expect(metrics.contains(#"pongd_media_frames_total{kind="audio"} 0"#))
        #expect(metrics.contains(#"pongd_media_frames_rejected_total{code="codec_mismatch"} 1"#))
        #expect(metrics.contains(#"pongd_media_frames_rejected_total{code="undecodable_media"} 1"#))

        // Usable frames: both tracks live, each frame counted.
        let keyFrame: [UInt8] = [0x50, 0x42, 0x00, 0x9d, 0x01, 0x2a, 0x00, 0x05, 0xd0, 0x02]
            + Array(repeating: 0, count: 200)
        try await phone.socket.send(binary: TestPhone.frame(kind: 2, codec: 2, sequence: 1, payload: keyFrame))
        try await phone.socket.send(binary: TestPhone.frame(kind: 1, codec: 1, sequence: 1,
                                                            payload: TestPhone.silentOpusPacket))
        // The same audio frame again: a duplicate, dropped silently and counted for nothing.
        try await phone.socket.send(binary: TestPhone.frame(kind: 1, codec: 1, sequence: 1,
                                                            payload: TestPhone.silentOpusPacket))
        try await handled(phone.socket)
        let live = try await playerStream(on: server, code: code, token: phone.token)
        #expect(live["video"] as? String == "live")
        #expect(live["audio"] as? String == "live")
        metrics = try await TestHTTPClient.request(.GET, port: server.metricsPort, path: "/metrics").body
        #expect(metrics.contains(#"pongd_media_frames_total{kind="video"} 1"#))
        #expect(metrics.contains(#"pongd_media_frames_total{kind="audio"} 1"#))
        try await server.stop()
    }

    @Test("media errors, stream_not_started and malformed frames included, are throttled per socket")
    func mediaErrorsThrottled() async throws {
        let server = try await HubTestServer.start(mediaErrorInterval: .seconds(60))
        let (code, _, phone, _, _) = try await seatedPlayer(on: server)
        let video = TestPhone.frame(kind: 2, codec: 1, sequence: 0, payload: [0, 0, 1, 0x65])
        try await phone.socket.send(binary: video)
        #expect(jsonObject(await phone.socket.next(type: "error"))["code"] as? String == "stream_not_started")
        // Within the interval the socket hears of no rejected frame: the next error is the answer to `ready`.
        try await phone.socket.send(binary: video)
        try await phone.socket.send(binary: TestPhone.frame(kind: 1, codec: 1, sequence: 0, payload: [0xf8]))
        try await phone.socket.send(binary: [1, 2, 3])
        try await phone.socket.send(#"{"type":"ready"}"#)
        #expect(jsonObject(await phone.socket.next(type: "error"))["code"] as? String == "out_of_order")

        // Another player's socket has its own allowance.
        let (token, user) = try await server.joinGuest(named: "Bo", code: code)
        let other = try await TestWebSocketClient.connect(
            port: server.port, path: "/sessions/\(code)/player/\(user)?token=\(token)")
        try await other.send(#"{"type":"hello"}"#)
        _ = await other.next(type: "welcome")
        try await other.send(binary: video)
        #expect(jsonObject(await other.next(type: "error"))["code"] as? String == "stream_not_started")

        let metrics = try await TestHTTPClient.request(.GET, port: server.metricsPort, path: "/metrics").body
        #expect(metrics.contains(#"pongd_media_frames_rejected_total{code="stream_not_started"} 4"#))
        #expect(metrics.contains(#"pongd_media_frames_rejected_total{code="frame_too_short"} 1"#))
        #expect(metrics.contains(#"pongd_errors_total{code="stream_not_started"} 2"#))
        #expect(!metrics.contains(#"pongd_errors_total{code="frame_too_short"}"#))
        try await server.stop()
    }

    @Test("a dashboard that sends binary, a frame or garbage, hears dashboard_read_only and keeps listening")
    func dashboardBinaryIsReadOnly() async throws {
        let server = try await HubTestServer.start(mediaErrorInterval: .zero)  // every error sent
        let session = try await server.hostSession()
        let dashboard = try await TestWebSocketClient.connect(
            port: server.port, path: "/sessions/\(session.code)/dashboard?token=\(session.hostToken)")
        _ = await dashboard.next(type: "welcome")
        try await dashboard.send(binary: TestPhone.frame(kind: 1, codec: 1, sequence: 0,
                                                         payload: TestPhone.silentOpusPacket))
        #expect(jsonObject(await dashboard.next(type: "error"))["code"] as? String == "dashboard_read_only")
        try await dashboard.send(binary: [1, 2, 3])
        #expect(jsonObject(await dashboard.next(type: "error"))["code"] as? String == "dashboard_read_only")
        // Still listening: a player's join reaches it.
        _ = try await server.joinGuest(named: "Cy", code: session.code)
        let lobby = await dashboard.next(where: { ($0.contains(#""type":"lobby""#)) && $0.contains("Cy") })
        #expect(lobby != nil)
        let metrics = try await TestHTTPClient.request(.GET, port: server.metricsPort, path: "/metrics").body
        #expect(metrics.contains(#"pongd_media_frames_rejected_total{code="dashboard_read_only"} 2"#))
        try await server.stop()
    }
}
