import PongWire

/// A profile photo from `POST /users/profile`: base64 (optionally a `data:image/…;base64,` URL, line breaks
/// allowed) of a JPEG or PNG of at most 2 MB, at most 4096×4096 pixels and 64 MiB decoded, that really decodes.
///
/// The stored bytes are the sanitized image: metadata (EXIF with GPS, XMP, text chunks, comments, ICC profiles) is
/// dropped, the rest kept byte for byte (`PNGSanitizer`, `JPEGSanitizer`), and the result decoded once with
/// libavcodec (`ImageDecoder`).
package struct ProfilePhoto: Hashable, Sendable {
    /// Largest decoded photo, bytes.
    package static let maxBytes = 2 * 1024 * 1024

    /// Image formats accepted.
    package enum Format: String, Hashable, Sendable {
        case jpeg = "image/jpeg"
        case png = "image/png"
    }

    /// The sanitized image bytes.
    package let bytes: [UInt8]
    /// JPEG or PNG.
    package let format: Format
    /// Pixels across and down.
    package let width: Int
    package let height: Int

    /// The photo `base64` encodes, or `.invalidPhoto` / `.photoTooLarge` / `.photoDimensionsTooLarge`.
    package init(base64 input: String) throws(APIError) {
        var text = Substring(input)
        if text.hasPrefix("data:"), let comma = text.firstIndex(of: ",") {
            guard text[..<comma].hasSuffix(";base64") else { throw .invalidPhoto }
            text = text[text.index(after: comma)...]
        }
        let compact = String(text.filter { !$0.isWhitespace })
        guard compact.utf8.count <= (Self.maxBytes + 2) / 3 * 4 else { throw .photoTooLarge }
        guard let bytes = Base64.decoded(compact) else { throw .invalidPhoto }
        try self.init(bytes: bytes)
    }

    /// The photo of raw JPEG or PNG bytes (checked, sanitized and decoded as above).
    package init(bytes: [UInt8]) throws(APIError) {
        guard bytes.count <= Self.maxBytes else { throw .photoTooLarge }
        let sanitized: (bytes: [UInt8], header: ImageHeader)?
        if bytes.starts(with: JPEGSanitizer.magic) {
            format = .jpeg
            sanitized = JPEGSanitizer.sanitize(bytes)
        } else if bytes.starts(with: PNGSanitizer.signature) {
            format = .png
            sanitized = PNGSanitizer.sanitize(bytes)
        } else {
            throw .invalidPhoto
        }
        guard let sanitized else { throw .invalidPhoto }
        guard sanitized.header.isWithinLimits else { throw .photoDimensionsTooLarge }
        guard ImageDecoder.decodes(sanitized.bytes, as: format, header: sanitized.header) else { throw .invalidPhoto }
        self.bytes = sanitized.bytes
        width = sanitized.header.width
        height = sanitized.header.height
    }
}
