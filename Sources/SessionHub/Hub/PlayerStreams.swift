import BounceDetector
import Dispatch
import PongWire

/// What the ingest keeps for one player after `POST /streams/start`: the stream monitor, the audio decoder and
/// detector, and the video inspection.
final class PlayerStreams {
    /// States, timeouts and rates of the tracks.
    var monitor: StreamMonitor
    /// Decoder and detector of the audio track; nil without audio.
    let audio: AudioIngest?
    /// The video track's codec; nil without video.
    let videoCodec: MediaFrame.Codec?
    /// Reads H.264 picture sizes (an H.264 video track only).
    private let h264: H264ResolutionParser?

    init(request: StreamStartRequest, now: ContinuousClock.Instant,
         configuration: StreamMonitor.Configuration) throws(AudioError) {
        monitor = StreamMonitor(video: request.video != nil, audio: request.audio != nil, now: now,
                                configuration: configuration)
        audio = try request.audio.map { audio throws(AudioError) in
            try AudioIngest(codec: audio.codec, preSkip: audio.preSkip ?? 0)
        }
        videoCodec = request.video.map { $0.codec == .h264 ? .h264 : .vp8 }
        h264 = videoCodec == .h264 ? H264ResolutionParser() : nil
    }

    /// Learns the picture size from a video payload, when it carries one.
    func inspectVideo(_ payload: UnsafeRawBufferPointer, codec: MediaFrame.Codec) {
        let resolution: VideoResolution?
        switch codec {
        case .h264:
            resolution = h264?.resolution(of: payload)
        case .vp8:
            resolution = VP8FrameHeader(payload)?.resolution
        case .opus, .aac, .filler:
            return
        }
        if let resolution { monitor.resolutionSeen(resolution) }
    }
}
