import Crypto
import Foundation

/// The web client's files (docs/WEB.md): the pages (`index.html`, `host.html`) and the assets under `assets/`,
/// read once into memory from the SessionHub resource bundle (`Sources/SessionHub/WebPages`, shipped beside the
/// binary as `pongd_SessionHub.resources`) or from a folder given by `pongd serve --web-root`.
///
/// Only regular files whose names are plain (`[a-z0-9._-]`, no leading dot) are kept: a request names a file by
/// that name alone, so nothing outside the folder can be reached.
package struct WebAssets: Sendable {
    /// One file: its bytes, content type and entity tag.
    package struct File: Sendable {
        package var bytes: [UInt8]
        package var contentType: String
        /// A strong ETag: the first 16 bytes of the content's SHA-256, hex, quoted.
        package var etag: String
    }

    /// The pages, by name (`index.html`, `host.html`).
    package private(set) var pages: [String: File] = [:]
    /// The assets under `assets/`, by file name.
    package private(set) var assets: [String: File] = [:]

    /// Loads the folder's pages and its `assets/` files.
    package init(folder: URL) throws {
        pages = try Self.files(in: folder)
        assets = try Self.files(in: folder.appendingPathComponent("assets"))
    }

    /// The built-in copy (`Sources/SessionHub/WebPages`).
    package static func builtIn() throws -> WebAssets {
        guard let folder = Bundle.module.url(forResource: "WebPages", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "WebPages in the SessionHub bundle"])
        }
        return try WebAssets(folder: folder)
    }

    /// Content types by file extension; a file of any other extension is not served.
    static let contentTypes = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml", "png": "image/png",
        "json": "application/json; charset=utf-8", "webmanifest": "application/manifest+json",
    ]

    /// Whether `name` may name a served file: plain lower-case letters, digits, `.`, `_`, `-`; no leading dot.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && !name.hasPrefix(".")
            && name.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
    }

    private static func files(in folder: URL) throws -> [String: File] {
        var files: [String: File] = [:]
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        for name in names where isPlainName(name) {
            let url = folder.appendingPathComponent(name)
            let values = try url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
            guard values.isRegularFile == true, values.isSymbolicLink != true,
                let type = contentTypes[url.pathExtension]
            else { continue }
            let bytes = try [UInt8](Data(contentsOf: url))
            let digest = SHA256.hash(data: bytes).prefix(16).map { String(format: "%02x", $0) }.joined()
            files[name] = File(bytes: bytes, contentType: type, etag: "\"\(digest)\"")
        }
        return files
    }
}
