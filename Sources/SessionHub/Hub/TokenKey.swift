import Foundation

/// The HMAC key tokens are signed with, kept in `<dataDirectory>/token.key` so tokens survive a restart.
enum TokenKey {
    static let fileName = "token.key"
    /// Its name among the secrets of a shared store (several nodes on PostgreSQL).
    static let sharedName = "token-key"
    static let length = 32

    /// Reads the key, creating it (owner-readable only, 0600) on first start; an existing key is narrowed to 0600.
    static func load(dataDirectory: String) throws -> [UInt8] {
        let path = (dataDirectory as NSString).appendingPathComponent(fileName)
        if let data = FileManager.default.contents(atPath: path), data.count == length {
            try DataFolder.restrictIfPresent(path)
            return Array(data)
        }
        var generator = SystemRandomNumberGenerator()
        let key = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        try DataFolder.prepare(dataDirectory)
        guard FileManager.default.createFile(atPath: path, contents: Data(key), attributes: [.posixPermissions: 0o600])
        else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        return key
    }
}

/// Random identifiers and secrets.
enum RandomID {
    /// `bytes` random bytes as lower-case hex.
    static func hex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        for _ in 0..<bytes {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            text += String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
        }
        return text
    }
}
