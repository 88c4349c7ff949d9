/// Why a binary media frame was rejected. Every malformed input maps to one of these, never to a crash.
///
/// The client sees `apiError` as `error {code, message}` on its WebSocket; the frame is dropped and the stream
/// goes on (flood limits are the transport's).
public struct MediaFrameError: Error, Hashable, Sendable {
    private enum Reason: Hashable, Sendable {
        case tooShort(count: Int)
        case tooLarge(count: Int, limit: Int)
        case unknownKind(UInt8)
        case unknownCodec(UInt8, kind: MediaFrame.Kind)
        case emptyPayload(MediaFrame.Kind)
    }

    private let reason: Reason

    private init(_ reason: Reason) { self.reason = reason }

    /// Fewer bytes than the 14-byte header (`frame_too_short`).
    package static func tooShort(count: Int) -> MediaFrameError { MediaFrameError(.tooShort(count: count)) }
    /// More than `limit` bytes (`frame_too_large`).
    package static func tooLarge(count: Int, limit: Int) -> MediaFrameError {
        MediaFrameError(.tooLarge(count: count, limit: limit))
    }
    /// A first byte that is not 1, 2 or 3 (`unknown_frame_kind`).
    package static func unknownKind(_ byte: UInt8) -> MediaFrameError { MediaFrameError(.unknownKind(byte)) }
    /// A codec byte the frame's kind does not define (`unknown_codec`).
    package static func unknownCodec(_ byte: UInt8, kind: MediaFrame.Kind) -> MediaFrameError {
        MediaFrameError(.unknownCodec(byte, kind: kind))
    }
    /// An audio or video frame with nothing after the header (`empty_payload`).
    package static func emptyPayload(kind: MediaFrame.Kind) -> MediaFrameError {
        MediaFrameError(.emptyPayload(kind))
    }

    /// The snake_case code clients see.
    package var code: String {
        switch reason {
        case .tooShort: "frame_too_short"
        case .tooLarge: "frame_too_large"
        case .unknownKind: "unknown_frame_kind"
        case .unknownCodec: "unknown_codec"
        case .emptyPayload: "empty_payload"
        }
    }

    /// The text clients see.
    package var message: String {
        switch reason {
        case .tooShort(let count):
            "Media frame of \(count) bytes is shorter than its \(MediaFrame.headerBytes)-byte header"
        case .tooLarge(_, let limit): "Media frames are limited to \(limit) bytes"
        case .unknownKind(let byte): "Unknown media frame kind \(byte)"
        case .unknownCodec(let byte, let kind): "Unknown codec \(byte) for \(kind.label) frames"
        case .emptyPayload(let kind): "Empty \(kind.label) frame"
        }
    }

    /// The client-facing error: status 413 for `frame_too_large`, 400 otherwise (a WebSocket sends no status).
    package var apiError: APIError {
        if case .tooLarge = reason { return APIError(status: 413, code: code, message: message) }
        return APIError(status: 400, code: code, message: message)
    }
}

extension MediaFrame.Kind {
    /// The kind's name in error texts.
    fileprivate var label: String {
        switch self {
        case .audio: "audio"
        case .video: "video"
        case .uploadFiller: "upload-probe filler"
        }
    }
}
