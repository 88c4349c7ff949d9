import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program and collects its output.
enum ToolRun {
    static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    /// The `pongd` executable beside this test bundle in the build folder.
    static func pongd() throws -> URL { try executable("pongd") }

    /// The executable `name` of this package beside this test bundle in the build folder.
    static func executable(_ name: String) throws -> URL {
        var folder = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(name) beside \(Bundle.main.bundleURL.path)"])
    }
}
