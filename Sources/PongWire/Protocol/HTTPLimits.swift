/// Size limits of the HTTP routes (docs/PROTOCOL.md, docs/SECURITY.md).
package enum HTTPLimits {
    /// Largest accepted request body (a 2 MB photo as base64 plus JSON); bigger ones get `payload_too_large` (413).
    package static let maxBodyBytes = 3 * 1024 * 1024
}
