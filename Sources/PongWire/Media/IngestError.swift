/// Why a media frame of a started stream could not be used. The frame is dropped, the stream goes on; the phone
/// sees `apiError` as an `error` message (throttled per socket by `MediaErrorThrottle`; every one counted in the
/// metrics).
public struct IngestError: Error, Hashable, Sendable {
    private enum Reason: Hashable, Sendable {
        case codecMismatch(expected: MediaFrame.Codec, got: MediaFrame.Codec)
        case undecodable(MediaFrame.Codec)
    }

    private let reason: Reason

    private init(_ reason: Reason) { self.reason = reason }

    /// A frame whose codec is not the one `POST /streams/start` chose for its track (`codec_mismatch`).
    package static func codecMismatch(expected: MediaFrame.Codec, got: MediaFrame.Codec) -> IngestError {
        IngestError(.codecMismatch(expected: expected, got: got))
    }

    /// A packet the track's decoder rejected (`undecodable_media`).
    package static func undecodable(_ codec: MediaFrame.Codec) -> IngestError { IngestError(.undecodable(codec)) }

    /// The snake_case code clients see.
    package var code: String {
        switch reason {
        case .codecMismatch: "codec_mismatch"
        case .undecodable: "undecodable_media"
        }
    }

    /// The client-facing error.
    package var apiError: APIError {
        switch reason {
        case .codecMismatch(let expected, _):
            APIError(status: 409, code: code, message: "This stream was started with \(expected.label); send that")
        case .undecodable(let codec):
            APIError(status: 400, code: code, message: "Could not decode a \(codec.label) frame")
        }
    }
}

extension MediaFrame.Codec {
    /// The codec's name in error texts.
    package var label: String {
        switch self {
        case .opus: "Opus"
        case .aac: "AAC"
        case .h264: "H.264"
        case .vp8: "VP8"
        case .filler: "filler"
        }
    }
}
