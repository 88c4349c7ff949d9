import Foundation

/// Writing lines to stderr (progress, failures) and stdout (results).
enum Console {
    /// One line on stderr.
    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// One line on stdout (unbuffered).
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
