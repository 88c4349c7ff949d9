import Foundation
import Testing
@testable import SessionHub

/// Photos for the photo tests: real files from ffmpeg (`Fixtures/photo_64x48.*`), and PNGs built by hand (stored
/// deflate blocks, real CRCs) that may claim any size.
enum PhotoFixtures {
    /// A fixture file's bytes.
    static func file(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
        return [UInt8](try Data(contentsOf: url))
    }

    /// The simulator's 1×1 PNG.
    static let tinyPNG = [UInt8](Data(base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
        ?? Data())

    /// A gray 8-bit PNG whose IHDR says `width`×`height` and whose pixel data is `rows` rows of `width` bytes
    /// (all of them unless given), in stored deflate blocks.
    static func png(width: Int, height: Int, rows: Int? = nil) -> [UInt8] {
        var raw: [UInt8] = []
        for _ in 0..<(rows ?? height) { raw += [0] + [UInt8](repeating: 0x80, count: width) }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, raw.count - offset)
            let final: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        zlib += be32(b << 16 | a)
        return PNGSanitizer.signature + chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [8, 0, 0, 0, 0])
            + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    /// `png` with a chunk inserted right after IHDR.
    static func inserting(_ type: String, _ data: [UInt8], into png: [UInt8]) -> [UInt8] {
        let afterHeader = 8 + 12 + 13
        return Array(png[..<afterHeader]) + chunk(type, data) + Array(png[afterHeader...])
    }

    /// `jpeg` with a segment (marker and payload) inserted right after SOI.
    static func inserting(marker: UInt8, _ payload: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + Array(jpeg[2...])
    }

    /// A PNG chunk with its CRC.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(CRC32.checksum(body[...]))
    }

    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}

extension Array where Element == UInt8 {
    /// True when `needle` occurs in these bytes.
    func contains(bytes needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}
