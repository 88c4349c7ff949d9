import NIOCore
@testable import SessionHub
@testable import PongWire

/// What each fuzzed parser must do with any input (`ParserFuzzTests`): answer with a value or with one of its
/// documented errors, never trap, and agree with its encoder where it has one. Each check returns nil when the
/// property holds, else what broke.
enum ParserProperties {
    /// `MediaFrame.parse`: a `MediaFrameError` with a documented code and status, or a frame whose payload is the
    /// rest of the bytes and which re-encodes to exactly them; the raw and ByteBuffer entry points agree.
    static func mediaFrame(_ bytes: [UInt8]) -> String? {
        let raw = bytes.withUnsafeBytes { raw in Result { () throws(MediaFrameError) in try MediaFrame.parse(raw) } }
        let buffered = Result { () throws(MediaFrameError) in try MediaFrame.parse(ByteBuffer(bytes: bytes)) }
        guard raw == buffered else { return "parse(raw) \(raw) but parse(ByteBuffer) \(buffered)" }
        switch raw {
        case .failure(let error):
            return documented(error.apiError, among: ["frame_too_short", "frame_too_large", "unknown_frame_kind",
                                                      "unknown_codec", "empty_payload"])
        case .success(let frame):
            guard frame.payloadRange == MediaFrame.headerBytes..<bytes.count else {
                return "payload \(frame.payloadRange) of a \(bytes.count)-byte frame"
            }
            let encoded = MediaFrame.encode(codec: frame.codec, sequence: frame.sequence,
                                            captureTime: frame.captureTime, payload: bytes[MediaFrame.headerBytes...])
            return encoded == bytes ? nil : "\(frame) re-encodes to other bytes"
        }
    }

    /// `MessageCodec.decodeClientMessage`: a `MessageDecodingError` with a documented code, or a message that
    /// encodes (as pong-player-sim sends it) and decodes back to itself.
    static func clientMessage(_ bytes: [UInt8]) -> String? {
        let message: ClientMessage
        do {
            message = try MessageCodec.decodeClientMessage(bytes)
        } catch {
            return documented(error.apiError, among: ["malformed_json", "unknown_type", "missing_field",
                                                      "invalid_field", "message_too_large"])
        }
        guard let text = try? MessageCodec.encodeJSON(message) else { return "\(message) does not encode" }
        guard let again = try? MessageCodec.decodeClientMessage(text) else { return "\(text) does not decode" }
        return again == message ? nil : "\(message) round-trips to \(again)"
    }

    /// `H264ResolutionParser` (one parser for every input, as a stream has): nil, or a positive size only for an
    /// access unit that carries a sequence parameter set.
    static func h264(_ bytes: [UInt8], parser: H264ResolutionParser) -> String? {
        bytes.withUnsafeBytes { raw in
            guard let size = parser.resolution(of: raw) else { return nil }
            guard size.width > 0, size.height > 0 else { return "size \(size)" }
            return H264ResolutionParser.containsSequenceParameterSet(raw) ? nil : "size \(size) without an SPS"
        }
    }

    /// `VP8FrameHeader`: nil, or bit 0 of the tag saying key frame, and a key frame's size 1…16383 on each side.
    static func vp8(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { raw in
            guard let header = VP8FrameHeader(raw) else { return nil }
            guard header.isKeyFrame == (bytes[0] & 1 == 0) else { return "key frame flag \(header.isKeyFrame)" }
            guard let size = header.resolution else { return header.isKeyFrame ? "a key frame without a size" : nil }
            guard header.isKeyFrame else { return "an interframe with a size" }
            return (1...16383).contains(size.width) && (1...16383).contains(size.height) ? nil : "size \(size)"
        }
    }

    /// `ProfilePhoto(bytes:)` (the PNG and JPEG sanitizers, then libavcodec): a documented photo error, or a photo
    /// within the limits, no bigger than its input, whose sanitized bytes are accepted again unchanged.
    static func photo(_ bytes: [UInt8]) -> String? {
        let photo: ProfilePhoto
        do {
            photo = try ProfilePhoto(bytes: bytes)
        } catch {
            return documented(error, among: ["invalid_photo", "photo_too_large", "photo_dimensions_too_large"])
        }
        guard (1...ImageLimits.maxSide).contains(photo.width), (1...ImageLimits.maxSide).contains(photo.height) else {
            return "accepted a \(photo.width)x\(photo.height) photo"
        }
        guard photo.bytes.count <= bytes.count else {
            return "sanitizing grew \(bytes.count) to \(photo.bytes.count) bytes"
        }
        guard let again = try? ProfilePhoto(bytes: photo.bytes) else { return "its sanitized bytes are refused" }
        return again == photo ? nil : "sanitizing its sanitized bytes changes them"
    }

    /// Nil when `error` is one of `codes` exactly as `APIError.all` (the list PROTOCOL.md is checked against) has it.
    private static func documented(_ error: APIError, among codes: Set<String>) -> String? {
        guard codes.contains(error.code) else { return "undocumented error \(error.code)" }
        guard let listed = APIError.all.first(where: { $0.code == error.code }) else {
            return "\(error.code) is not in APIError.all"
        }
        return listed.status == error.status ? nil : "\(error.code) with status \(error.status), not \(listed.status)"
    }
}

/// Mutants with their checksums made valid again, so mutations reach what a checksum guards.
enum ChecksumRepair {
    /// A PNG whose chunks' CRCs are recomputed, walking chunks from the signature while they fit (other bytes as
    /// they are).
    static func png(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.starts(with: PNGSanitizer.signature) else { return bytes }
        var out = bytes
        var offset = 8
        while offset + 12 <= out.count {
            let length = Int(ByteReader.uint32(out, at: offset))
            guard length <= out.count - offset - 12 else { break }
            let end = offset + 8 + length
            let crc = CRC32.checksum(out[(offset + 4)..<end])
            for index in 0..<4 { out[end + index] = UInt8(truncatingIfNeeded: crc >> UInt32(24 - 8 * index)) }
            offset = end + 4
        }
        return out
    }
}
