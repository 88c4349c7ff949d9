@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Stream monitor: starting, live, failed, reports")
struct StreamMonitorTests {
    let t0 = ContinuousClock.now
    let unmuted = LobbySnapshot.Muted()

    private func at(_ ms: Int) -> ContinuousClock.Instant { t0 + .milliseconds(ms) }

    @Test("the first frame makes a track live; later frames change nothing")
    func live() {
        var monitor = StreamMonitor(video: true, audio: true, now: t0)
        #expect(monitor.frameArrived(.audio, bytes: 100, now: at(100)) == [.trackChanged(.audio, .live)])
        #expect(monitor.frameArrived(.audio, bytes: 100, now: at(120)).isEmpty)
        #expect(monitor.report(now: at(500)).state == .starting)  // video still starting
        #expect(monitor.frameArrived(.video, bytes: 5000, now: at(130)) == [.trackChanged(.video, .live)])
        #expect(monitor.report(now: at(500)).state == .live)
    }

    @Test("no frame within 3 s of the start fails the track, with the spec's diagnostics")
    func startTimeout() {
        var monitor = StreamMonitor(video: true, audio: false, now: t0)
        #expect(!monitor.tick(now: at(2999), held: unmuted).contains(.trackChanged(.video, .failed)))
        let actions = monitor.tick(now: at(3000), held: unmuted)
        #expect(actions.first == .trackChanged(.video, .failed))
        let report = monitor.report(now: at(3000))
        #expect(report.state == .failed)
        #expect(report.diagnostics == ["Check camera permissions", "Check network connection", "Restart app if needed"])
        #expect(monitor.tick(now: at(3500), held: unmuted).allSatisfy { if case .report = $0 { true } else { false } })
    }

    @Test("a live track that stalls 5 s fails; sending again makes it live again")
    func stall() {
        var monitor = StreamMonitor(video: false, audio: true, now: t0)
        _ = monitor.frameArrived(.audio, bytes: 80, now: at(1000))
        #expect(!monitor.tick(now: at(5999), held: unmuted).contains(.trackChanged(.audio, .failed)))
        #expect(monitor.tick(now: at(6000), held: unmuted).contains(.trackChanged(.audio, .failed)))
        #expect(monitor.report(now: at(6000)).diagnostics?.first == "Check microphone permissions")
        #expect(monitor.frameArrived(.audio, bytes: 80, now: at(7000)) == [.trackChanged(.audio, .live)])
        #expect(monitor.report(now: at(7000)).state == .live)
        #expect(monitor.report(now: at(7000)).diagnostics == nil)
    }

    @Test("muting is not a failure; unmuting gives the track its full timeout again")
    func muted() {
        var monitor = StreamMonitor(video: true, audio: false, now: t0)
        _ = monitor.frameArrived(.video, bytes: 5000, now: at(0))
        let mutedVideo = LobbySnapshot.Muted(video: true, audio: false)
        #expect(!monitor.tick(now: at(20_000), held: mutedVideo).contains(.trackChanged(.video, .failed)))
        #expect(!monitor.tick(now: at(21_000), held: unmuted).contains(.trackChanged(.video, .failed)))
        #expect(!monitor.tick(now: at(25_999), held: unmuted).contains(.trackChanged(.video, .failed)))
        #expect(monitor.tick(now: at(26_000), held: unmuted).contains(.trackChanged(.video, .failed)))
    }

    @Test("a report each second with the measured rate, fps and resolution")
    func reports() {
        var monitor = StreamMonitor(video: true, audio: true, now: t0)
        #expect(monitor.tick(now: at(999), held: unmuted).isEmpty)
        monitor.resolutionSeen(VideoResolution(width: 1280, height: 720))
        for frame in 0..<60 {  // 2 s of 30 fps video at 2 Mbit/s (8333 bytes a frame) and 50 audio packets a second
            _ = monitor.frameArrived(.video, bytes: 8333, now: at(1000 + frame * 1000 / 30))
        }
        for packet in 0..<100 { _ = monitor.frameArrived(.audio, bytes: 100, now: at(1000 + packet * 20)) }
        let actions = monitor.tick(now: at(3000), held: unmuted)
        guard case .report(let report, let grade)? = actions.last else {
            Issue.record("no report in \(actions)")
            return
        }
        #expect(report.state == .live)
        #expect(report.resolution == "1280x720")
        #expect(report.fps == 30)
        #expect(abs(report.uploadKbps - 2040) < 1)  // (60 × 8333 + 100 × 100) bytes over 2 s
        #expect(grade == .fair)
        #expect(monitor.tick(now: at(3100), held: unmuted).isEmpty)  // next report due at 4 s
    }

    @Test("without video, resolution and fps are null")
    func audioOnly() {
        var monitor = StreamMonitor(video: false, audio: true, now: t0)
        monitor.resolutionSeen(VideoResolution(width: 640, height: 480))
        for packet in 0..<100 { _ = monitor.frameArrived(.audio, bytes: 100, now: at(packet * 20)) }
        let report = monitor.report(now: at(2000))
        #expect(report.resolution == nil)
        #expect(report.fps == nil)
        #expect(report.uploadKbps == 40)
        #expect(!monitor.isStarted(.video))
        #expect(monitor.isStarted(.audio))
    }

    @Test("each track keeps its own state: a frame or a timeout of one never touches the other")
    func tracksApart() {
        var monitor = StreamMonitor(video: true, audio: true, now: t0)
        #expect(monitor.frameArrived(.audio, bytes: 100, now: at(0)) == [.trackChanged(.audio, .live)])
        #expect(monitor.report(now: at(100)).state == .starting)  // video has sent nothing
        // 3 s: video fails to start; audio, live since 0, is 2 s short of its stall timeout.
        let actions = monitor.tick(now: at(3000), held: unmuted)
        #expect(actions.contains(.trackChanged(.video, .failed)))
        #expect(!actions.contains(.trackChanged(.audio, .failed)))
        #expect(monitor.frameArrived(.video, bytes: 5000, now: at(3100)) == [.trackChanged(.video, .live)])
        #expect(monitor.frameArrived(.audio, bytes: 100, now: at(3200)).isEmpty)

        var videoOnly = StreamMonitor(video: true, audio: false, now: t0)
        #expect(videoOnly.frameArrived(.audio, bytes: 100, now: at(0)).isEmpty)
        #expect(!videoOnly.isStarted(.audio))
        #expect(videoOnly.tick(now: at(3000), held: unmuted).contains(.trackChanged(.video, .failed)))
        #expect(!videoOnly.tick(now: at(9000), held: unmuted).contains(.trackChanged(.audio, .failed)))
    }
}
