#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Owner-only permissions for the data folder and what it holds: emails, password hashes and the token key
/// (docs/SECURITY-accounts.md, "Data at rest"). The folder is 0700 and its files 0600, whatever the umask.
enum DataFolder {
    /// rwx for the owner only.
    static let folderMode: mode_t = 0o700
    /// rw for the owner only.
    static let fileMode: mode_t = 0o600

    /// Creates `path` (and its parents) as needed and narrows it to `folderMode`.
    static func prepare(_ path: String) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: Int(folderMode)])
        } catch {
            throw StoreError.io.with(detail: "cannot create \(path): \(error)")
        }
        guard chmod(path, folderMode) == 0 else {
            throw StoreError.io.with(detail: "cannot chmod \(path): errno \(errno)")
        }
    }

    /// Creates `path` empty with `fileMode` if it is missing, else narrows it to `fileMode`. SQLite gives its
    /// `-wal` and `-shm` files the database file's mode, so a database file made here keeps them owner-only too.
    static func restrictFile(_ path: String) throws(StoreError) {
        let descriptor = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw StoreError.io.with(detail: "cannot create \(path): errno \(errno)") }
        close(descriptor)
        guard chmod(path, fileMode) == 0 else {
            throw StoreError.io.with(detail: "cannot chmod \(path): errno \(errno)")
        }
    }

    /// Narrows `path` to `fileMode` if it exists.
    static func restrictIfPresent(_ path: String) throws(StoreError) {
        guard chmod(path, fileMode) == 0 || errno == ENOENT else {
            throw StoreError.io.with(detail: "cannot chmod \(path): errno \(errno)")
        }
    }
}
