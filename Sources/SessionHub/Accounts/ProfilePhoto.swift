/// A profile photo from `POST /users/profile`: base64 (optionally a `data:image/…;base64,` URL, line breaks
/// allowed) of a JPEG or PNG of at most 2 MB.
package struct ProfilePhoto: Hashable, Sendable {
    /// Largest decoded photo, bytes.
    package static let maxBytes = 2 * 1024 * 1024

    /// Image formats accepted, told by their first bytes.
    package enum Format: String, Hashable, Sendable {
        case jpeg = "image/jpeg"
        case png = "image/png"
    }

    /// The image bytes.
    package let bytes: [UInt8]
    /// JPEG or PNG.
    package let format: Format

    /// The photo `base64` encodes, or `.invalidPhoto` / `.photoTooLarge`.
    package init(base64 input: String) throws(APIError) {
        var text = Substring(input)
        if text.hasPrefix("data:"), let comma = text.firstIndex(of: ",") {
            guard text[..<comma].hasSuffix(";base64") else { throw .invalidPhoto }
            text = text[text.index(after: comma)...]
        }
        let compact = String(text.filter { !$0.isWhitespace })
        guard compact.utf8.count <= (Self.maxBytes + 2) / 3 * 4 else { throw .photoTooLarge }
        guard let bytes = Base64.decoded(compact) else { throw .invalidPhoto }
        guard bytes.count <= Self.maxBytes else { throw .photoTooLarge }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            format = .jpeg
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            format = .png
        } else {
            throw .invalidPhoto
        }
        self.bytes = bytes
    }
}
