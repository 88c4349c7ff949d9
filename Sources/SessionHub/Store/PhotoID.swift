import PongWire

/// A stored profile photo (`photo.id`, `profile.photoId`).
package struct PhotoID: StringIdentifier {
    package var rawValue: String

    package init(_ rawValue: String) { self.rawValue = rawValue }

    /// A new identifier: 32 lower-case hex digits (128 bits) drawn from `random`.
    package static func generate(using random: inout some RandomNumberGenerator) -> PhotoID {
        let digits = Array("0123456789abcdef")
        var text = ""
        for _ in 0..<32 { text.append(digits[Int(random.next(upperBound: UInt8(16)))]) }
        return PhotoID(text)
    }
}
