import CAudio

/// Learns an H.264 stream's picture size from its access units with libavcodec's H.264 parser (which reads the
/// sequence parameter set and the first slice header, cropping included).
///
/// Only access units that carry a sequence parameter set (NAL type 7, sent with every key frame) are parsed; the
/// others cannot change the size. The input copy (libavcodec needs zero padding after the data) grows to the largest
/// such unit seen. Not thread-safe: one parser per stream.
package final class H264ResolutionParser {
    private let parser: UnsafeMutablePointer<AVCodecParserContext>
    private var context: UnsafeMutablePointer<AVCodecContext>
    private var buffer: UnsafeMutableRawBufferPointer
    private static let padding = Int(pong_av_input_buffer_padding_size())

    /// Opens libavcodec's H.264 parser; nil if this FFmpeg build lacks it.
    package init?() {
        guard let parser = av_parser_init(Int32(AV_CODEC_ID_H264.rawValue)) else { return nil }
        guard let context = avcodec_alloc_context3(nil) else {
            av_parser_close(parser)
            return nil
        }
        parser.pointee.flags |= PARSER_FLAG_COMPLETE_FRAMES
        self.parser = parser
        self.context = context
        self.buffer = .allocate(byteCount: 4096 + Self.padding, alignment: 64)
    }

    deinit {
        av_parser_close(parser)
        var contextPointer: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&contextPointer)
        buffer.deallocate()
    }

    /// The picture size, when `accessUnit` (Annex-B) carries a sequence parameter set the parser could read;
    /// nil otherwise (no SPS, or a malformed one — never a crash).
    package func resolution(of accessUnit: UnsafeRawBufferPointer) -> VideoResolution? {
        guard Self.containsSequenceParameterSet(accessUnit), let source = accessUnit.baseAddress else { return nil }
        let needed = accessUnit.count + Self.padding
        if buffer.count < needed {
            buffer.deallocate()
            buffer = .allocate(byteCount: needed, alignment: 64)
        }
        guard let base = buffer.baseAddress else { return nil }
        base.copyMemory(from: source, byteCount: accessUnit.count)
        (base + accessUnit.count).initializeMemory(as: UInt8.self, repeating: 0, count: Self.padding)
        parser.pointee.width = 0
        parser.pointee.height = 0
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: Int32 = 0
        _ = av_parser_parse2(parser, context, &output, &outputSize, base.assumingMemoryBound(to: UInt8.self),
                             Int32(accessUnit.count), Int64.min, Int64.min, 0)
        let width = Int(parser.pointee.width)
        let height = Int(parser.pointee.height)
        guard width > 0, height > 0 else { return nil }
        return VideoResolution(width: width, height: height)
    }

    /// Whether an Annex-B byte stream holds a NAL unit of type 7 (after a `00 00 01` start code). Parameter sets
    /// precede the picture's slices, so the scan stops at the first slice (types 1–5): the bulk of a frame, its
    /// slice data, is never read.
    static func containsSequenceParameterSet(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 2
        while index + 1 < bytes.count {
            if bytes[index] == 1, bytes[index - 1] == 0, bytes[index - 2] == 0 {
                switch bytes[index + 1] & 0x1f {
                case 7: return true
                case 1...5: return false
                default: break
                }
            }
            index += 1
        }
        return false
    }
}
