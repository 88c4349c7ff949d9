import CQRencode

/// A QR code symbol made by Debian's libqrencode: a square of dark and light modules, without its quiet zone.
package struct QRCode: Hashable, Sendable {
    /// How much of the symbol may be damaged and still read (QR's four levels).
    package enum ErrorCorrection: Sendable {
        /// About 7 % of the codewords.
        case low
        /// About 15 %: pongd's choice for a code on a screen.
        case medium
        /// About 25 %.
        case quartile
        /// About 30 %.
        case high

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    /// The symbol's version, 1–40 (the smallest that holds the text).
    package let version: Int
    /// Modules on a side (17 + 4 × version).
    package let size: Int
    /// Row-major, `size` × `size`; true is dark.
    package let modules: [Bool]

    /// The symbol of `text` (as UTF-8 bytes, case kept) at `errorCorrection`; nil for an empty text or one too long
    /// for any QR code (over about 2,300 bytes at level M).
    package init?(encoding text: String, errorCorrection: ErrorCorrection = .medium) {
        guard !text.isEmpty, !text.utf8.contains(0),
              let symbol = QRcode_encodeString(text, 0, errorCorrection.level, QR_MODE_8, 1)
        else { return nil }
        defer { QRcode_free(symbol) }
        let size = Int(symbol.pointee.width)
        let data = UnsafeBufferPointer(start: symbol.pointee.data, count: size * size)
        version = Int(symbol.pointee.version)
        self.size = size
        // Bit 0 of each byte is the module's colour; the other bits are libqrencode's bookkeeping.
        modules = data.map { $0 & 1 == 1 }
    }

    /// True when the module at column `x`, row `y` is dark.
    package func isDark(x: Int, y: Int) -> Bool {
        modules[y * size + x]
    }
}
