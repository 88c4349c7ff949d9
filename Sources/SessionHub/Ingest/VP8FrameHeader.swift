/// The uncompressed header at the start of a VP8 frame (RFC 6386, section 9.1), enough to learn a key frame's size.
///
/// Every frame starts with a 3-byte tag (bit 0 clear for a key frame, bits 5–23 the first partition's size); a key
/// frame follows it with the start code `9d 01 2a` and two little-endian 16-bit fields, 14 bits of size and 2 of
/// scaling each. Interframes carry no size.
package struct VP8FrameHeader: Hashable, Sendable {
    /// A key frame (it carries the size).
    package var isKeyFrame: Bool
    /// The key frame's size; nil for an interframe.
    package var resolution: VideoResolution?

    /// Reads the header; nil when the bytes are not a VP8 frame (too short, or a key frame without its start code,
    /// or a zero size).
    package init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 3 else { return nil }
        let isKeyFrame = bytes[0] & 0x01 == 0
        self.isKeyFrame = isKeyFrame
        guard isKeyFrame else {
            resolution = nil
            return
        }
        guard bytes.count >= 10, bytes[3] == 0x9d, bytes[4] == 0x01, bytes[5] == 0x2a else { return nil }
        let width = (Int(bytes[6]) | Int(bytes[7]) << 8) & 0x3fff
        let height = (Int(bytes[8]) | Int(bytes[9]) << 8) & 0x3fff
        guard width > 0, height > 0 else { return nil }
        resolution = VideoResolution(width: width, height: height)
    }
}
