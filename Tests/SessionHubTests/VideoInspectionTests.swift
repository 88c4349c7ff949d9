import Foundation
import Testing
@testable import SessionHub

@Suite("Ingest: video picture sizes")
struct VideoInspectionTests {
    private func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
        return [UInt8](try Data(contentsOf: url))
    }

    @Test("H.264 key frames from libx264 give their size through libavcodec's parser, cropping included",
          arguments: [("h264_1280x720.h264", "1280x720"), ("h264_1920x1080.h264", "1920x1080")])
    func h264(file: String, expected: String) throws {
        let bytes = try fixture(file)
        let parser = try #require(H264ResolutionParser())
        let resolution = bytes.withUnsafeBytes { parser.resolution(of: $0) }
        #expect(resolution?.description == expected)
    }

    @Test("access units without a sequence parameter set, garbage and truncated units give no size, no crash")
    func h264Garbage() throws {
        let parser = try #require(H264ResolutionParser())
        let noSPS: [UInt8] = [0, 0, 0, 1, 0x41, 0x9a, 0x02, 0x03]
        #expect(noSPS.withUnsafeBytes { parser.resolution(of: $0) } == nil)
        let badSPS: [UInt8] = [0, 0, 1, 0x67, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
        #expect(badSPS.withUnsafeBytes { parser.resolution(of: $0) } == nil)
        let whole = try fixture("h264_1280x720.h264")
        for length in [5, 12, 30, 100] {
            _ = Array(whole.prefix(length)).withUnsafeBytes { parser.resolution(of: $0) }
        }
        #expect(whole.withUnsafeBytes { parser.resolution(of: $0) }?.description == "1280x720")
    }

    @Test("the SPS scan stops at the first slice: parameter sets only count before the picture data")
    func spsScanStopsAtSlice() {
        let spsFirst: [UInt8] = [0, 0, 1, 0x67, 0x42, 0, 0, 1, 0x65, 0x88]
        let sliceFirst: [UInt8] = [0, 0, 1, 0x65, 0x88, 0, 0, 1, 0x67, 0x42]  // "00 00 01 67" inside slice data
        let seiThenSPS: [UInt8] = [0, 0, 1, 0x06, 0x05, 0, 0, 1, 0x67, 0x42]
        #expect(spsFirst.withUnsafeBytes { H264ResolutionParser.containsSequenceParameterSet($0) })
        #expect(!sliceFirst.withUnsafeBytes { H264ResolutionParser.containsSequenceParameterSet($0) })
        #expect(seiThenSPS.withUnsafeBytes { H264ResolutionParser.containsSequenceParameterSet($0) })
    }

    @Test("a VP8 key frame from libvpx carries its size; an interframe none; junk is not VP8")
    func vp8() throws {
        let key = try fixture("vp8_640x480_key.vp8")
        let header = key.withUnsafeBytes { VP8FrameHeader($0) }
        #expect(header?.isKeyFrame == true)
        #expect(header?.resolution == VideoResolution(width: 640, height: 480))
        let inter: [UInt8] = [0x31, 0x02, 0x00, 0x11]
        let interHeader = inter.withUnsafeBytes { VP8FrameHeader($0) }
        #expect(interHeader?.isKeyFrame == false)
        #expect(interHeader != nil && interHeader?.resolution == nil)
        let noStartCode: [UInt8] = [0x50, 0x42, 0x00, 0x9d, 0x01, 0x2b, 0x80, 0x02, 0xe0, 0x01]
        #expect(noStartCode.withUnsafeBytes { VP8FrameHeader($0) } == nil)
        #expect([UInt8]([0x00]).withUnsafeBytes { VP8FrameHeader($0) } == nil)
    }
}
