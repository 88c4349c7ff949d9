import PongWire

/// The readiness rules of DESIGN.md ("Readiness"): the server decides, the phone only displays.
///
/// A player can be ready when no check fails: a display name; camera granted and video live, or "join without
/// video"; microphone granted and audio live, or "continue without audio"; a recent connection test (good or fair;
/// poor warns); latency ≤ 100 ms (else a warning); battery ≥ 20 % or charging (else a warning).
package enum Readiness {
    /// Limits of the rules.
    package struct Policy: Hashable, Sendable {
        /// A connection test older than this no longer counts ("in the last few minutes").
        package var connectionTestMaxAge: Duration
        /// Median idle round trip above this warns.
        package var latencyTargetMs: Double
        /// Battery percentage below this (and not charging) warns.
        package var lowBatteryPercent: Double

        package init(connectionTestMaxAge: Duration = .seconds(300), latencyTargetMs: Double = 100,
                     lowBatteryPercent: Double = 20) {
            self.connectionTestMaxAge = connectionTestMaxAge
            self.latencyTargetMs = latencyTargetMs
            self.lowBatteryPercent = lowBatteryPercent
        }
    }

    /// Everything the rules look at, as the player journey knows it.
    package struct Input: Hashable, Sendable {
        /// Display name, if set.
        package var displayName: String?
        /// Camera permission.
        package var camera: PermissionStatus = .pending
        /// Video track state.
        package var video: MediaState = .off
        /// The player chose "join without video".
        package var withoutVideo = false
        /// Microphone permission.
        package var microphone: PermissionStatus = .pending
        /// Audio track state.
        package var audio: MediaState = .off
        /// The player chose "continue without audio".
        package var withoutAudio = false
        /// The latest connection test, if any.
        package var connectionTest: ConnectionTestResult?
        /// How long ago it finished (nil counts as fresh).
        package var connectionTestAge: Duration?
        /// The latest battery report, if any.
        package var battery: ClientMessage.Battery?

        package init(displayName: String? = nil) { self.displayName = displayName }
    }

    /// The `readiness` message for `input`, every rule listed in `ReadinessReport.CheckID` order.
    package static func evaluate(_ input: Input, policy: Policy = Policy()) -> ReadinessReport {
        ReadinessReport(checks: [
            profile(input), camera(input), microphone(input),
            connection(input, policy), latency(input, policy), battery(input, policy),
        ])
    }

    private typealias Check = ReadinessReport.Check

    private static func profile(_ input: Input) -> Check {
        input.displayName.map { !$0.isEmpty } == true
            ? Check(id: .profile, status: .ok, message: "Profile ready")
            : Check(id: .profile, status: .fail, message: "Enter your name")
    }

    private static func camera(_ input: Input) -> Check {
        if input.withoutVideo { return Check(id: .camera, status: .warn, message: "Joining without video") }
        switch (input.camera, input.video) {
        case (.pending, _): return Check(id: .camera, status: .fail, message: "Allow camera access")
        case (.denied, _): return Check(id: .camera, status: .fail, message: "Camera required for gameplay streaming")
        case (.granted, .live): return Check(id: .camera, status: .ok, message: "Camera ready")
        case (.granted, .starting): return Check(id: .camera, status: .fail, message: "Starting video stream…")
        case (.granted, .failed): return Check(id: .camera, status: .fail, message: "Unable to start video stream")
        case (.granted, .off): return Check(id: .camera, status: .fail, message: "Start your video stream")
        }
    }

    private static func microphone(_ input: Input) -> Check {
        if input.withoutAudio {
            return Check(id: .microphone, status: .warn, message: "Audio detection disabled")
        }
        switch (input.microphone, input.audio) {
        case (.pending, _): return Check(id: .microphone, status: .fail, message: "Allow microphone access")
        case (.denied, _):
            return Check(id: .microphone, status: .fail, message: "Microphone denied: continue without audio?")
        case (.granted, .live): return Check(id: .microphone, status: .ok, message: "Microphone ready")
        case (.granted, .starting): return Check(id: .microphone, status: .fail, message: "Starting audio…")
        case (.granted, .failed): return Check(id: .microphone, status: .fail, message: "Unable to start audio")
        case (.granted, .off): return Check(id: .microphone, status: .fail, message: "Start your audio stream")
        }
    }

    private static func freshTest(_ input: Input, _ policy: Policy) -> ConnectionTestResult? {
        guard let test = input.connectionTest else { return nil }
        if let age = input.connectionTestAge, age > policy.connectionTestMaxAge { return nil }
        return test
    }

    private static func connection(_ input: Input, _ policy: Policy) -> Check {
        guard let test = freshTest(input, policy) else {
            let message = input.connectionTest == nil ? "Test your connection" : "Test your connection again"
            return Check(id: .connection, status: .fail, message: message)
        }
        let rate = "\(Format.oneDecimal(test.uploadMbps)) Mbps upload"
        return switch test.grade {
        case .good: Check(id: .connection, status: .ok, message: "Good connection: \(rate)")
        case .fair: Check(id: .connection, status: .ok, message: "Fair connection: \(rate)")
        case .poor: Check(id: .connection, status: .warn, message: "Poor connection: \(rate). Video may lag")
        }
    }

    private static func latency(_ input: Input, _ policy: Policy) -> Check {
        guard let test = freshTest(input, policy) else {
            return Check(id: .latency, status: .fail, message: "Latency not measured yet")
        }
        let median = Format.whole(test.rttMs.median)
        return test.rttMs.median > policy.latencyTargetMs
            ? Check(id: .latency, status: .warn,
                    message: "High latency: \(median) ms (target under \(Format.whole(policy.latencyTargetMs)) ms)")
            : Check(id: .latency, status: .ok, message: "Latency \(median) ms")
    }

    private static func battery(_ input: Input, _ policy: Policy) -> Check {
        guard let battery = input.battery else {
            return Check(id: .battery, status: .warn, message: "Battery level unknown")
        }
        let level = Format.whole(battery.level)
        if battery.charging { return Check(id: .battery, status: .ok, message: "Charging (\(level)%)") }
        return battery.level >= policy.lowBatteryPercent
            ? Check(id: .battery, status: .ok, message: "Battery \(level)%")
            : Check(id: .battery, status: .warn, message: "Low battery (\(level)%): plug in to keep playing")
    }
}
