@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Readiness rules")
struct ReadinessTests {
    typealias Check = ReadinessReport.Check

    /// Everything in order: granted, live, a fresh good test, a full battery.
    static var allGood: Readiness.Input {
        var input = Readiness.Input(displayName: "Ana")
        input.camera = .granted
        input.video = .live
        input.microphone = .granted
        input.audio = .live
        input.connectionTest = Fixture.goodTest
        input.connectionTestAge = .seconds(10)
        input.battery = Fixture.fullBattery
        return input
    }

    private func check(_ id: ReadinessReport.CheckID, _ change: (inout Readiness.Input) -> Void) -> Check? {
        var input = Self.allGood
        change(&input)
        return Readiness.evaluate(input).check(id)
    }

    @Test("all rules met: every check ok, in a fixed order, and the player can be ready")
    func allOK() {
        let report = Readiness.evaluate(Self.allGood)
        #expect(report.canBeReady)
        #expect(report.checks == [
            Check(id: .profile, status: .ok, message: "Profile ready"),
            Check(id: .camera, status: .ok, message: "Camera ready"),
            Check(id: .microphone, status: .ok, message: "Microphone ready"),
            Check(id: .connection, status: .ok, message: "Good connection: 12.4 Mbps upload"),
            Check(id: .latency, status: .ok, message: "Latency 40 ms"),
            Check(id: .battery, status: .ok, message: "Battery 80%"),
        ])
    }

    @Test("no display name fails the profile check")
    func profile() {
        #expect(check(.profile) { $0.displayName = nil }
            == Check(id: .profile, status: .fail, message: "Enter your name"))
        #expect(check(.profile) { $0.displayName = "" }?.status == .fail)
    }

    @Test("camera: pending, denied and not-live fail; join without video warns", arguments: [
        (PermissionStatus.pending, MediaState.off, false, CheckStatus.fail, "Allow camera access"),
        (.denied, .off, false, .fail, "Camera required for gameplay streaming"),
        (.granted, .off, false, .fail, "Start your video stream"),
        (.granted, .starting, false, .fail, "Starting video stream…"),
        (.granted, .failed, false, .fail, "Unable to start video stream"),
        (.granted, .live, false, .ok, "Camera ready"),
        (.denied, .off, true, .warn, "Joining without video"),
        (.granted, .off, true, .warn, "Joining without video"),
    ])
    func camera(permission: PermissionStatus, video: MediaState, without: Bool, status: CheckStatus, text: String) {
        let result = check(.camera) {
            $0.camera = permission
            $0.video = video
            $0.withoutVideo = without
        }
        #expect(result == Check(id: .camera, status: status, message: text))
    }

    @Test("microphone: pending, denied and not-live fail; continue without audio warns", arguments: [
        (PermissionStatus.pending, MediaState.off, false, CheckStatus.fail, "Allow microphone access"),
        (.denied, .off, false, .fail, "Microphone denied: continue without audio?"),
        (.granted, .off, false, .fail, "Start your audio stream"),
        (.granted, .starting, false, .fail, "Starting audio…"),
        (.granted, .failed, false, .fail, "Unable to start audio"),
        (.granted, .live, false, .ok, "Microphone ready"),
        (.denied, .off, true, .warn, "Audio detection disabled"),
    ])
    func microphone(permission: PermissionStatus, audio: MediaState, without: Bool, status: CheckStatus,
                    text: String) {
        let result = check(.microphone) {
            $0.microphone = permission
            $0.audio = audio
            $0.withoutAudio = without
        }
        #expect(result == Check(id: .microphone, status: status, message: text))
    }

    @Test("connection: good and fair ok, poor warns, none or stale fails")
    func connection() {
        #expect(check(.connection) { $0.connectionTest = Fixture.fairTest }
            == Check(id: .connection, status: .ok, message: "Fair connection: 3.2 Mbps upload"))
        #expect(check(.connection) { $0.connectionTest = Fixture.poorTest }
            == Check(id: .connection, status: .warn, message: "Poor connection: 1.2 Mbps upload. Video may lag"))
        #expect(check(.connection) { $0.connectionTest = nil }
            == Check(id: .connection, status: .fail, message: "Test your connection"))
        #expect(check(.connection) { $0.connectionTestAge = .seconds(301) }
            == Check(id: .connection, status: .fail, message: "Test your connection again"))
        #expect(check(.connection) { $0.connectionTestAge = .seconds(300) }?.status == .ok)
        #expect(check(.connection) { $0.connectionTestAge = nil }?.status == .ok)
    }

    @Test("a poor connection still allows ready, with a warning")
    func poorAllowsReady() {
        var input = Self.allGood
        input.connectionTest = Fixture.poorTest
        #expect(Readiness.evaluate(input).canBeReady)
    }

    @Test("latency over 100 ms warns on its own; 100 ms exactly is ok; no test fails")
    func latency() {
        #expect(check(.latency) { $0.connectionTest = Fixture.slowTest }
            == Check(id: .latency, status: .warn, message: "High latency: 140 ms (target under 100 ms)"))
        #expect(check(.connection) { $0.connectionTest = Fixture.slowTest }?.status == .ok)
        var atTarget = Fixture.goodTest
        atTarget.rttMs.median = 100
        #expect(check(.latency) { $0.connectionTest = atTarget }?.status == .ok)
        #expect(check(.latency) { $0.connectionTest = nil }
            == Check(id: .latency, status: .fail, message: "Latency not measured yet"))
    }

    @Test("battery under 20 % warns unless charging; unknown warns")
    func battery() {
        #expect(check(.battery) { $0.battery = .init(level: 19, charging: false) }
            == Check(id: .battery, status: .warn, message: "Low battery (19%): plug in to keep playing"))
        #expect(check(.battery) { $0.battery = .init(level: 20, charging: false) }
            == Check(id: .battery, status: .ok, message: "Battery 20%"))
        #expect(check(.battery) { $0.battery = .init(level: 5, charging: true) }
            == Check(id: .battery, status: .ok, message: "Charging (5%)"))
        #expect(check(.battery) { $0.battery = nil }
            == Check(id: .battery, status: .warn, message: "Battery level unknown"))
    }

    @Test("warnings never block ready; any failure does")
    func canBeReady() {
        var warned = Self.allGood
        warned.withoutAudio = true
        warned.connectionTest = Fixture.slowTest
        warned.battery = nil
        #expect(Readiness.evaluate(warned).canBeReady)
        var failed = Self.allGood
        failed.video = .failed
        #expect(!Readiness.evaluate(failed).canBeReady)
    }
}
