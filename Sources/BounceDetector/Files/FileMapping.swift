#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A whole regular file mapped read-only into memory (`mmap` with `PROT_READ`, `MAP_PRIVATE`), unmapped when the
/// last reference goes.
///
/// The pages are file-backed: the kernel reads each in on first touch and may drop it again under memory pressure,
/// so reading a long file never needs its size in anonymous memory. As with any mapping, a file that another process
/// truncates while it is read raises SIGBUS on the next read past its new end.
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

    private static func failure(_ path: String, _ code: Int32) -> AudioError {
        AudioError(.io, "cannot read \(path): \(String(cString: strerror(code)))")
    }
}
