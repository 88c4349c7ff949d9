@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Hub metrics: counters by code made up front, exposition as if made on first use")
struct HubMetricsTests {
    private func lines(_ metrics: HubMetrics) -> [String] {
        String(decoding: metrics.exposition(), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("before any error the exposition has no by-code series and no type line for them")
    func nothingCounted() {
        let text = lines(HubMetrics()).joined(separator: "\n")
        #expect(!text.contains("pongd_errors_total"))
        #expect(!text.contains("pongd_media_frames_rejected_total"))
        #expect(text.contains(#"pongd_media_frames_total{kind="audio"} 0"#))  // other families keep their zeros
        #expect(text.contains("pongd_live_sessions 0"))
    }

    @Test("counted codes show with their counts under one type line; a code outside the known set counts too")
    func counted() {
        let metrics = HubMetrics()
        metrics.error("not_host")
        metrics.error("not_host")
        metrics.error("some_future_code")
        metrics.mediaRejected("codec_mismatch")
        let all = lines(metrics)
        let errors = all.filter { $0.contains("pongd_errors_total") }
        #expect(Set(errors) == ["# TYPE pongd_errors_total counter", #"pongd_errors_total{code="not_host"} 2"#,
                                #"pongd_errors_total{code="some_future_code"} 1"#])
        #expect(errors.first == "# TYPE pongd_errors_total counter")
        let rejected = all.filter { $0.contains("pongd_media_frames_rejected_total") }
        #expect(rejected == ["# TYPE pongd_media_frames_rejected_total counter",
                             #"pongd_media_frames_rejected_total{code="codec_mismatch"} 1"#])
    }

    @Test("every media rejection has a counter made up front, and is one of the errors pongd sends")
    func knownCodes() {
        let errorCodes = Set(HubMetrics.errorCodes)
        let media = [MediaFrameError.unknownCodec(9, kind: .video).code, IngestError.undecodable(.aac).code,
                     IngestError.codecMismatch(expected: .vp8, got: .h264).code, APIError.streamNotStarted.code,
                     APIError.outOfOrder("").code, APIError.dashboardReadOnly.code]
        for code in media {
            #expect(errorCodes.contains(code), "\(code)")
            #expect(HubMetrics.mediaRejectionCodes.contains(code), "\(code)")
        }
    }

    @Test("the filter drops only zero series of the named families and their type line when none is left")
    func filter() {
        let text = """
            # TYPE a_total counter
            a_total{code="x"} 0
            a_total{code="y"} 3
            # TYPE b_total counter
            b_total{code="x"} 0
            # TYPE c counter
            c{code="x"} 0
            c 0

            """
        let filtered = HubMetrics.droppingZeroSeries(of: ["a_total", "b_total"], from: Array(text.utf8))
        #expect(String(decoding: filtered, as: UTF8.self) == """
            # TYPE a_total counter
            a_total{code="y"} 3
            # TYPE c counter
            c{code="x"} 0
            c 0

            """)
    }
}
