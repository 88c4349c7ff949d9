import Foundation
@testable import SessionHub
@testable import PongWire

/// Shared values for the journey, session and wire tests.
enum Fixture {
    /// The tests' time zero (any instant works: the machines only compare instants they are given).
    static let t0 = ContinuousClock.now

    static let granted = ClientMessage.Permissions(camera: .granted, microphone: .granted)
    static let config = ClientMessage.StreamConfig(quality: .p720, fps: .fps30)
    /// A `POST /streams/start` body asking for the tracks given (H.264 720p30 video, Opus mono audio).
    static func streams(video: Bool = true, audio: Bool = true) -> StreamStartRequest {
        StreamStartRequest(sessionCode: "ABC234", video: video ? .init(codec: .h264, quality: .p720, fps: .fps30) : nil,
                           audio: audio ? .init(codec: .opus, sampleRate: 48000, channels: 1) : nil)
    }
    static let fullBattery = ClientMessage.Battery(level: 80, charging: false)

    static let goodTest = ConnectionTestResult(
        uploadMbps: 12.4, rttMs: .init(median: 40, p90: 60), rttUnderLoadMs: .init(median: 80, p90: 120), jitterMs: 5)
    static let fairTest = ConnectionTestResult(
        uploadMbps: 3.2, rttMs: .init(median: 40, p90: 60), rttUnderLoadMs: .init(median: 80, p90: 120), jitterMs: 5)
    static let poorTest = ConnectionTestResult(
        uploadMbps: 1.2, rttMs: .init(median: 40, p90: 60), rttUnderLoadMs: .init(median: 80, p90: 120), jitterMs: 5)
    static let slowTest = ConnectionTestResult(
        uploadMbps: 12.4, rttMs: .init(median: 140, p90: 180), rttUnderLoadMs: .init(median: 200, p90: 260),
        jitterMs: 20)

    /// A connected journey with a display name: phase `profiled`.
    static func profiledJourney(name: String = "Ana") -> PlayerJourney {
        var journey = PlayerJourney(displayName: name, photoURL: nil, awaitingUntil: t0 + .seconds(60))
        _ = journey.connected(now: t0)
        return journey
    }

    /// A journey driven to `phase` along the main path (camera and microphone granted, both tracks live).
    static func journey(at phase: PlayerJourney.Phase) -> PlayerJourney {
        var journey: PlayerJourney
        if phase == .joined {
            journey = PlayerJourney(displayName: nil, photoURL: nil, awaitingUntil: t0 + .seconds(60))
            _ = journey.connected(now: t0)
            return journey
        }
        journey = profiledJourney()
        _ = journey.received(.battery(fullBattery), now: t0)
        guard phase > .profiled else { return journey }
        _ = journey.received(.permissions(granted), now: t0)
        guard phase > .permissions else { return journey }
        _ = journey.received(.streamConfig(config), now: t0)
        _ = try? journey.streamStarted(video: true, audio: true, now: t0)
        _ = journey.mediaChanged(.video, to: .live, now: t0)
        _ = journey.mediaChanged(.audio, to: .live, now: t0)
        guard phase > .streamConfigured else { return journey }
        _ = journey.received(.connectionTestStart, now: t0)
        _ = journey.connectionTestCompleted(goodTest, now: t0)
        guard phase > .tested else { return journey }
        _ = journey.received(.ready, now: t0)
        return journey
    }
}

/// SplitMix64: a seeded, repeatable random source for tests.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Always the same value: every draw is the same code.
struct ConstantGenerator: RandomNumberGenerator {
    mutating func next() -> UInt64 { 0 }
}

/// Test JSON helpers.
enum JSON {
    /// The top-level object of `text`.
    static func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    /// The keys of an object value.
    static func keys(_ value: Any?) -> Set<String> {
        Set((value as? [String: Any])?.keys.map { $0 } ?? [])
    }
}
