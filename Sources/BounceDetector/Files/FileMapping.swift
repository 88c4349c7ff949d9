#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A whole regular file mapped read-only into memory (`mmap` with `PROT_READ`, `MAP_PRIVATE`), unmapped when the
/// last reference goes.
///
/// The pages are file-backed: the kernel reads each in on first touch and takes it back under memory pressure or
/// when `release(_:)` gives it back, so reading a long file never needs its size in memory. As with any mapping, a
/// file that another process truncates while it is read raises SIGBUS on the next read past its new end.
final class FileMapping: @unchecked Sendable {  // Sendable: immutable after init, and the memory is read-only.
    /// The file's bytes, valid while this object lives.
    let bytes: UnsafeRawBufferPointer

    /// Maps `path`; returns nil for an empty file (there is nothing to map). Throws `io`, naming the path and the
    /// system's reason, when the file cannot be opened or mapped or is not a regular file.
    static func map(path: String) throws(AudioError) -> FileMapping? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(path, errno) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw AudioError(.io, "cannot read \(path): not a regular file")
        }
        guard status.st_size > 0 else { return nil }
        guard let size = Int(exactly: status.st_size) else {
            throw AudioError(.io, "cannot read \(path): \(status.st_size) bytes do not fit in the address space")
        }
        let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let base, base != UnsafeMutableRawPointer(bitPattern: -1) else { throw failure(path, errno) }
        // Read-ahead in larger steps; a failure here only costs speed.
        _ = madvise(base, size, MADV_SEQUENTIAL)
        return FileMapping(UnsafeRawBufferPointer(start: base, count: size))
    }

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }

    /// Drops the pages under `range` from this process's memory (`MADV_DONTNEED`): the page holding its start goes
    /// too, the one holding its end stays unless it is the file's last. The next read there fetches them from the
    /// page cache or the file again: only speed depends on it, never the bytes read.
    func release(_ range: Range<Int>) {
        let lower = max(0, range.lowerBound) / Self.pageSize * Self.pageSize
        let end = min(range.upperBound, bytes.count)
        let upper = end == bytes.count ? end : end / Self.pageSize * Self.pageSize
        guard upper > lower, let base = bytes.baseAddress else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + lower), upper - lower, MADV_DONTNEED)
    }

    private static let pageSize = max(1, sysconf(Int32(_SC_PAGESIZE)))

    private static func failure(_ path: String, _ code: Int32) -> AudioError {
        AudioError(.io, "cannot read \(path): \(String(cString: strerror(code)))")
    }
}
