import Foundation
import PongWire

/// What of a journey is kept across a server restart (as JSON in the seat's `journey` column).
extension PlayerJourney {
    /// The journey's durable part. Instants of the monotonic clock do not survive a restart, so the connection
    /// test's time is kept on the wall clock, to the second.
    package struct Snapshot: Codable, Hashable, Sendable {
        var phase: Int
        var displayName: String?
        var photoURL: String?
        var permissions: ClientMessage.Permissions?
        var streamConfig: ClientMessage.StreamConfig?
        var withoutVideo: Bool
        var withoutAudio: Bool
        var videoStarted: Bool
        var audioStarted: Bool
        var muted: LobbySnapshot.Muted
        var test: ConnectionTestResult?
        var testedAt: Date?
        var battery: ClientMessage.Battery?
        /// The last `POST /streams/start` body (absent in rows written before it was kept).
        var streamRequest: StreamStartRequest?
    }

    /// The durable part now; `wallNow` is the wall-clock time at `now`.
    package func snapshot(now: ContinuousClock.Instant, wallNow: Date) -> Snapshot {
        let testedAt = connectionTest.map { test -> Date in
            let age = test.at.duration(to: now)
            let seconds = Double(age.components.seconds) + Double(age.components.attoseconds) * 1e-18
            return Date(timeIntervalSince1970: (wallNow.timeIntervalSince1970 - seconds).rounded())
        }
        return Snapshot(
            phase: phase.rawValue, displayName: displayName, photoURL: photoURL, permissions: permissions,
            streamConfig: streamConfig, withoutVideo: withoutVideo, withoutAudio: withoutAudio,
            videoStarted: video != .off, audioStarted: audio != .off, muted: muted, test: connectionTest?.result,
            testedAt: testedAt, battery: battery, streamRequest: streamRequest)
    }

    /// A journey brought back after a restart, `reconnecting` until `deadline`. Its socket and streams did not
    /// survive: started tracks come back `starting` (the hub reopens their decoders from `streamRequest`; their next
    /// frame makes them live again) and a ready player is back at `tested`, to tap ready again.
    package init(restoring snapshot: Snapshot, awaitingUntil deadline: ContinuousClock.Instant,
                 policy: Readiness.Policy, now: ContinuousClock.Instant, wallNow: Date) {
        self.init(displayName: snapshot.displayName, photoURL: snapshot.photoURL, awaitingUntil: deadline,
                  policy: policy)
        permissions = snapshot.permissions
        streamConfig = snapshot.streamConfig
        withoutVideo = snapshot.withoutVideo
        withoutAudio = snapshot.withoutAudio
        video = snapshot.videoStarted ? .starting : .off
        audio = snapshot.audioStarted ? .starting : .off
        muted = snapshot.muted
        battery = snapshot.battery
        if snapshot.videoStarted || snapshot.audioStarted { streamRequest = snapshot.streamRequest }
        if let result = snapshot.test, let testedAt = snapshot.testedAt {
            // At most a day back: any test that old is stale anyway, and the bound keeps the arithmetic safe.
            let age = min(max(0, wallNow.timeIntervalSince(testedAt)), 86_400)
            connectionTest = MeasuredTest(result: result, at: now - .milliseconds(Int64(age * 1000)))
        }
        var restored = Phase(rawValue: snapshot.phase) ?? .joined
        restored = min(restored, .tested)
        // The profile is stored before `POST /users/profile` answers, the journey step it completes a moment later
        // on the session's queue: a name stored by then completes it here, as `profileUpdated` would have.
        if restored == .joined, !(displayName?.isEmpty ?? true) { restored = .profiled }
        if restored == .tested, connectionTest == nil { restored = .streamConfigured }
        if restored == .streamConfigured, connectionTest != nil { restored = .tested }
        if restored >= .streamConfigured, streamConfig == nil, video == .off, audio == .off { restored = .permissions }
        if restored >= .permissions, permissions == nil { restored = .profiled }
        if restored >= .profiled, displayName?.isEmpty ?? true { restored = .joined }
        phase = restored
    }
}
