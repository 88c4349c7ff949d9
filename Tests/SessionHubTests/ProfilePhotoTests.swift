@testable import PongWire
import Testing
@testable import SessionHub

@Suite("Profile photos: parsed, size-checked, stripped of metadata and decoded before they are accepted")
struct ProfilePhotoTests {
    @Test("real PNG and JPEG photos are accepted with their size; the simulator's 1×1 PNG too")
    func real() throws {
        let png = try ProfilePhoto(bytes: try PhotoFixtures.file("photo_64x48.png"))
        #expect(png.format == .png && png.width == 64 && png.height == 48)
        let jpeg = try ProfilePhoto(bytes: try PhotoFixtures.file("photo_64x48.jpg"))
        #expect(jpeg.format == .jpeg && jpeg.width == 64 && jpeg.height == 48)
        #expect(try ProfilePhoto(bytes: PhotoFixtures.tinyPNG).width == 1)
        #expect(try ProfilePhoto(bytes: PhotoFixtures.png(width: 300, height: 200)).height == 200)
    }

    @Test("metadata is dropped: PNG text and EXIF chunks, JPEG EXIF/XMP APPn and comments; JFIF is kept")
    func metadata() throws {
        let gps = Array("GPSLatitude 48.8584".utf8)
        let png = PhotoFixtures.inserting("eXIf", gps, into: PhotoFixtures.inserting("tEXt", gps,
                                                                                   into: PhotoFixtures.png(width: 8, height: 8)))
        let cleanPNG = try ProfilePhoto(bytes: png).bytes
        #expect(!cleanPNG.contains(bytes: gps))
        #expect(cleanPNG == PhotoFixtures.png(width: 8, height: 8))
        let original = try PhotoFixtures.file("photo_64x48.jpg")
        let jpeg = PhotoFixtures.inserting(marker: 0xE1, Array("Exif\0\0".utf8) + gps, into: original)
        let cleanJPEG = try ProfilePhoto(bytes: jpeg).bytes
        #expect(!cleanJPEG.contains(bytes: gps))
        #expect(!cleanJPEG.contains(bytes: Array("Lavc".utf8)))  // ffmpeg's COM segment
        #expect(cleanJPEG.contains(bytes: Array("JFIF\0".utf8)))
        #expect(cleanJPEG.count < original.count)
    }

    @Test("a PNG claiming 100000×100000, or a JPEG 5000 wide, is photo_dimensions_too_large before decoding")
    func dimensions() throws {
        #expect(throws: APIError.photoDimensionsTooLarge) {
            try ProfilePhoto(bytes: PhotoFixtures.png(width: 100_000, height: 100_000, rows: 1))
        }
        #expect(throws: APIError.photoDimensionsTooLarge) {
            try ProfilePhoto(bytes: PhotoFixtures.png(width: 4097, height: 1))
        }
        var jpeg = try PhotoFixtures.file("photo_64x48.jpg")
        let sof = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg[sof + 7] = 0x13  // width 0x1388 = 5000
        jpeg[sof + 8] = 0x88
        #expect(throws: APIError.photoDimensionsTooLarge) { try ProfilePhoto(bytes: jpeg) }
    }

    @Test("a PNG whose pixel data does not fill its size does not decode")
    func truncatedPixels() {
        #expect(throws: APIError.invalidPhoto) {
            try ProfilePhoto(bytes: PhotoFixtures.png(width: 2000, height: 2000, rows: 3))
        }
    }

    @Test("broken structure is invalid_photo", arguments: [
        "HTML behind JPEG magic", "PNG with a bad CRC", "JPEG without EOI", "PNG without IEND", "PNG magic only",
        "JPEG scan of garbage", "unknown critical PNG chunk",
    ])
    func malformed(kind: String) throws {
        let png = PhotoFixtures.png(width: 8, height: 8)
        let jpeg = try PhotoFixtures.file("photo_64x48.jpg")
        let bytes: [UInt8] = switch kind {
        case "HTML behind JPEG magic":
            [0xFF, 0xD8, 0xFF, 0xE0] + Array("<html><script>alert(document.cookie)</script></html>".utf8)
        case "PNG with a bad CRC": Array(png[..<40]) + [png[40] ^ 0xFF] + Array(png[41...])
        case "JPEG without EOI": Array(jpeg.dropLast(2))
        case "PNG without IEND": Array(png.dropLast(12))
        case "PNG magic only": PNGSanitizer.signature
        case "JPEG scan of garbage":
            Array(jpeg[..<(try #require(sosEnd(jpeg)))]) + [UInt8](repeating: 0x11, count: 40) + [0xFF, 0xD9]
        default: PhotoFixtures.inserting("ZZZZ", [1, 2, 3], into: png)
        }
        #expect(throws: APIError.invalidPhoto) { try ProfilePhoto(bytes: bytes) }
    }

    /// The offset right after the first SOS segment's header.
    private func sosEnd(_ jpeg: [UInt8]) -> Int? {
        guard let sos = (0..<(jpeg.count - 3)).first(where: { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA }) else {
            return nil
        }
        return sos + 2 + (Int(jpeg[sos + 2]) << 8 | Int(jpeg[sos + 3]))
    }
}
