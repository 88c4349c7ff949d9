import CAudio

/// Decodes a sanitized PNG or JPEG with libavcodec's `png` and `mjpeg` decoders, to accept only what really is a
/// picture of the size its header states. Single-threaded, `max_pixels` set to `ImageLimits` (a lying header
/// cannot make it allocate more), and strict (`AV_EF_EXPLODE`): an error is not concealed.
enum ImageDecoder {
    /// True when libavcodec decodes `bytes` as `format` without error to one picture of exactly `header`'s size.
    static func decodes(_ bytes: [UInt8], as format: ProfilePhoto.Format, header: ImageHeader) -> Bool {
        guard header.isWithinLimits, !bytes.isEmpty,
              let codec = avcodec_find_decoder(format == .png ? AV_CODEC_ID_PNG : AV_CODEC_ID_MJPEG),
              var context = Optional(avcodec_alloc_context3(codec)), let opened = context
        else { return false }
        defer { avcodec_free_context(&context) }
        opened.pointee.max_pixels = Int64(ImageLimits.maxSide * ImageLimits.maxSide)
        opened.pointee.thread_count = 1
        // Strict: a bitstream error or an overread fails the decode instead of being concealed.
        opened.pointee.err_recognition = AV_EF_CRCCHECK | AV_EF_BITSTREAM | AV_EF_BUFFER | AV_EF_EXPLODE
        var packet = av_packet_alloc()
        var frame = av_frame_alloc()
        defer {
            av_packet_free(&packet)
            av_frame_free(&frame)
        }
        guard avcodec_open2(opened, codec, nil) >= 0, let packet, let frame,
              av_new_packet(packet, Int32(bytes.count)) >= 0, let data = packet.pointee.data
        else { return false }
        bytes.withUnsafeBufferPointer { source in data.update(from: source.baseAddress!, count: source.count) }
        guard avcodec_send_packet(opened, packet) >= 0 else { return false }
        _ = avcodec_send_packet(opened, nil)  // end of stream: the decoder hands out what it holds
        var pictures = 0
        while true {
            let received = avcodec_receive_frame(opened, frame)
            if received == pong_averror_eagain() || received == pong_averror_eof() { break }
            guard received >= 0, frame.pointee.decode_error_flags == 0,
                  Int(frame.pointee.width) == header.width, Int(frame.pointee.height) == header.height
            else { return false }
            pictures += 1
            av_frame_unref(frame)
        }
        return pictures == 1
    }
}
