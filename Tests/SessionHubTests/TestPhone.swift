import BounceDetector
import Foundation
import Testing
@testable import SessionHub

/// A phone that walks the journey to ready over a real socket, answering the prober like a real phone does.
struct TestPhone {
    let server: HubTestServer
    let token: String
    let code: String
    let socket: TestWebSocketClient

    /// A media frame of the contract: kind, codec, seq, capture time, payload.
    static func frame(kind: UInt8, codec: UInt8, sequence: UInt32, bytes: Int) -> [UInt8] {
        frame(kind: kind, codec: codec, sequence: sequence, payload: [UInt8](repeating: 0x5A, count: bytes))
    }

    /// A media frame carrying `payload`, captured at `captureTime` µs.
    static func frame(kind: UInt8, codec: UInt8, sequence: UInt32, captureTime: UInt64 = 1_000_000,
                      payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [kind, codec]
        out += withUnsafeBytes(of: sequence.bigEndian, Array.init)
        out += withUnsafeBytes(of: captureTime.bigEndian, Array.init)
        out += payload
        return out
    }

    /// 20 ms of silence as an Opus packet.
    static let silentOpusPacket: [UInt8] = (try? OpusPacketEncoder().encode([Float](repeating: 0, count: 960))) ?? [0xf8]

    /// permissions → streamConfig → streams/start → first frames → battery → connection test; returns the
    /// `connectionTest` result message. Filler: frames of `fillerBytes`, `fillerPause` apart (nil: as fast as the
    /// socket takes them, like a phone on a fast link).
    func walkToTested(fillerBytes: Int = 32 * 1024, fillerPause: Duration? = .milliseconds(5)) async throws
        -> [String: Any] {
        try await socket.send(#"{"type":"permissions","camera":"granted","microphone":"granted"}"#)
        try await socket.send(#"{"type":"streamConfig","quality":"720p","fps":30}"#)
        let start = try await server.call("POST", "/streams/start", token: token, json: """
            {"sessionCode":"\(code)","video":{"codec":"h264","quality":"720p","fps":30},
             "audio":{"codec":"opus","sampleRate":48000,"channels":1}}
            """)
        #expect(start.status == 200)
        try await socket.send(binary: Self.frame(kind: 1, codec: 1, sequence: 0, payload: Self.silentOpusPacket))
        try await socket.send(binary: Self.frame(kind: 2, codec: 1, sequence: 0, bytes: 2000))
        try await socket.send(#"{"type":"battery","level":80,"charging":false}"#)
        try await socket.send(#"{"type":"connectionTest.start"}"#)
        let sender = socket.sender
        var upload: Task<Void, any Error>?
        while let event = await socket.next() {
            guard case .text(let text) = event else { break }
            let message = jsonObject(text)
            switch message["type"] as? String {
            case "probe.ping":
                let id = message["id"] as? Int ?? -1
                let t = message["t"] as? Int ?? -1
                try await socket.send(#"{"type":"probe.pong","id":\#(id),"t":\#(t)}"#)
            case "probe.upload":
                let seconds = message["seconds"] as? Double ?? 2
                upload = Task {
                    let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
                    var sequence: UInt32 = 0
                    while ContinuousClock.now < end {
                        try await sender.send(binary: Self.frame(kind: 3, codec: 0, sequence: sequence,
                                                                 bytes: fillerBytes - 14))
                        sequence += 1
                        if let fillerPause { try await Task.sleep(for: fillerPause) }
                    }
                }
            case "connectionTest":
                try await upload?.value
                return message
            default:
                continue
            }
        }
        return [:]
    }
}
