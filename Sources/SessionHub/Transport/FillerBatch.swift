import NIOCore
import NIOWebSocket
import PongWire

/// Upload-probe filler on one socket, gathered by the transport between two reads' ends (docs/PROTOCOL.md,
/// "Connection test"). A phone sends filler as fast as its link allows, and a fast link carries tens of thousands of
/// frames a second: counting them against the socket's frame limit closed fast links with 4008, and handing each to
/// its session cost a queue hop per frame. Bulk filler (`isBulk`) is therefore not counted as frames; it is summed
/// here and handed over once per read burst, with its size and frame count.
struct FillerBatch {
    /// Filler frames at least this long (header included) are bulk filler; shorter ones count as ordinary frames,
    /// so tiny frames cannot flood the socket under filler's cover.
    static let minimumBulkBytes = 1024

    private(set) var bytes = 0
    private(set) var frames = 0

    /// Whether `frame` is a whole upload-probe filler media frame (kind 3, codec 0) of at least `minimumBulkBytes`.
    /// Reads only its first two bytes, unmasking them on the fly: the payload is never touched.
    static func isBulk(_ frame: WebSocketFrame) -> Bool {
        let data = frame.data
        guard frame.fin, data.readableBytes >= minimumBulkBytes,
            var kind = data.getInteger(at: data.readerIndex, as: UInt8.self),
            var codec = data.getInteger(at: data.readerIndex + 1, as: UInt8.self)
        else { return false }
        if let mask = frame.maskKey {
            kind ^= mask[0]
            codec ^= mask[1]
        }
        return kind == MediaFrame.Kind.uploadFiller.rawValue && codec == 0
    }

    /// Counts one bulk filler frame of `byteCount` bytes.
    mutating func add(byteCount: Int) {
        bytes += byteCount
        frames += 1
    }

    /// What was gathered since the last call (nil if nothing), and starts over.
    mutating func take() -> (bytes: Int, frames: Int)? {
        guard frames > 0 else { return nil }
        defer { (bytes, frames) = (0, 0) }
        return (bytes, frames)
    }
}
