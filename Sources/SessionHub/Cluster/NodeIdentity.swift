import Foundation

/// A node's identity among several on one store: a random id kept in `<dataDirectory>/node.id`, so a node restarted
/// (even on another address) owns its sessions again at once; another data folder is another node.
enum NodeIdentity {
    static let fileName = "node.id"

    /// Reads the id, creating it on first start (owner-readable only).
    static func load(dataDirectory: String) throws -> String {
        let path = (dataDirectory as NSString).appendingPathComponent(fileName)
        if let data = FileManager.default.contents(atPath: path) {
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if text.count == 24, text.allSatisfy(\.isHexDigit) { return text }
        }
        let id = RandomID.hex(bytes: 12)
        try DataFolder.prepare(dataDirectory)
        guard FileManager.default.createFile(atPath: path, contents: Data((id + "\n").utf8),
                                             attributes: [.posixPermissions: 0o600])
        else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        return id
    }
}
