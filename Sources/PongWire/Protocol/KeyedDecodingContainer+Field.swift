extension KeyedDecodingContainer {
    /// `decode(_:forKey:)`, with number errors pinned to the key. swift-foundation's JSONDecoder scans the whole
    /// document for well-formedness first but converts numbers lazily: `1.5` for an `Int`, or `1e400`, fails with an
    /// internal error that reaches the caller as a path-less "not valid JSON". Raised while decoding this key, such
    /// an error belongs to it.
    func decodeField<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        do {
            return try decode(type, forKey: key)
        } catch let error as DecodingError {
            throw pinned(error, to: key)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\(error)")
        }
    }

    /// `decodeIfPresent(_:forKey:)` with the same pinning as `decodeField`.
    func decodeFieldIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        do {
            return try decodeIfPresent(type, forKey: key)
        } catch let error as DecodingError {
            throw pinned(error, to: key)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\(error)")
        }
    }

    private func pinned(_ error: DecodingError, to key: Key) -> DecodingError {
        guard case .dataCorrupted(let context) = error, context.codingPath.isEmpty else { return error }
        return DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: context.debugDescription)
    }
}
