/// The bytes of an audio file, read in place: the array handed to `AudioFile.open(bytes:)` (or a reader's
/// `init(bytes:)`), or a read-only mapping of the file `AudioFile.open(path:)` opened.
///
/// Copies share the storage. The readers reach the bytes only inside `withUnsafeBytes`, which keeps the storage
/// alive for the call, so nothing is copied out of the file but the headers they parse.
struct FileBytes: Sendable {
    private enum Storage: Sendable {
        case array([UInt8])
        case mapping(FileMapping)
    }

    private let storage: Storage

    /// Bytes in the file.
    let count: Int

    /// Whether the file holds no bytes.
    var isEmpty: Bool { count == 0 }

    /// Bytes held in memory.
    init(_ array: [UInt8]) {
        storage = .array(array)
        count = array.count
    }

    /// The file at `path`, mapped read-only (an empty file gives no bytes); throws `io` naming the path when the
    /// file cannot be opened or mapped.
    init(mapping path: String) throws(AudioError) {
        if let mapping = try FileMapping.map(path: path) {
            self.init(mapping)
        } else {
            self.init([])
        }
    }

    private init(_ mapping: FileMapping) {
        storage = .mapping(mapping)
        count = mapping.bytes.count
    }

    /// Calls `body` with the bytes; the pointer is valid only during the call.
    func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        switch storage {
        case .array(let array):
            return try array.withUnsafeBytes { raw in Result { () throws(E) in try body(raw) } }.get()
        case .mapping(let mapping):
            return try withExtendedLifetime(mapping) { () throws(E) -> R in try body(mapping.bytes) }
        }
    }

    /// Gives a mapping's pages under `range` back to the kernel (see `FileMapping.release(_:)`); nothing for an array.
    func release(_ range: Range<Int>) {
        if case .mapping(let mapping) = storage { mapping.release(range) }
    }

    /// Whether the file starts with `prefix` (magic bytes).
    func starts(with prefix: some Sequence<UInt8>) -> Bool {
        withUnsafeBytes { raw in raw.starts(with: prefix) }
    }
}

/// Gives a mapping's pages back as a front-to-back pass leaves them, so that about `window` bytes of a long file stay
/// in memory however long it is. Does nothing for bytes held in an array.
struct PageReleaser {
    /// Bytes passed between two releases: one `madvise` per window.
    static let window = 2 << 20

    private let bytes: FileBytes
    private var released = 0

    /// A pass over `bytes` from their start.
    init(_ bytes: FileBytes) {
        self.bytes = bytes
    }

    /// The pass is done with every byte before `offset`.
    mutating func passed(_ offset: Int) {
        guard offset - released >= Self.window else { return }
        bytes.release(released..<offset)
        released = offset
    }
}
