import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program from a Debian package that a test drives as a real peer (a rasterizer, a QR decoder, a browser), found
/// on the PATH; tests that need one are skipped, saying which package brings it, when it is missing.
struct ExternalTool: Sendable {
    /// The executable's full path.
    let path: String

    /// The first `name` on the PATH (or in /usr/bin), nil when there is none.
    init?(_ name: String) {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + ["/usr/bin", "/usr/local/bin"]
        guard let found = folders.map({ $0 + "/" + name }).first(where: FileManager.default.isExecutableFile(atPath:))
        else { return nil }
        path = found
    }

    /// The program at `path`, nil when there is no executable there.
    init?(path: String) {
        guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
        self.path = path
    }

    /// Runs the program to its end; its exit status, standard output and standard error.
    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Standard error on a thread of its own, so neither pipe fills up while the other is read.
        let errors = Collected()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errors.data = err.fileHandleForReading.readDataToEndOfFile() }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        group.wait()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self),
                String(decoding: errors.data, as: UTF8.self))
    }
}

/// Bytes one thread reads and another takes after `DispatchGroup.wait()`.
private final class Collected: @unchecked Sendable {
    var data = Data()
}
