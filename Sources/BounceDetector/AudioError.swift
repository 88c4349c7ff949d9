/// Why audio could not be read or decoded: a code to branch on and one line that says what is wrong.
///
/// Readers and decoders throw only this type; nothing in BounceDetector traps on bad input.
public struct AudioError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure it was. New codes can be added without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case truncated, corrupt, unsupported, codec, io
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The input ends before a structure it declares is complete.
        public static let truncated = Code(.truncated)
        /// The input is not what its header or magic bytes claim (bad magic, bad checksum, bad sizes).
        public static let corrupt = Code(.corrupt)
        /// A well-formed input that uses a feature, format or codec this build does not handle.
        public static let unsupported = Code(.unsupported)
        /// The codec library rejected the data or failed to initialise.
        public static let codec = Code(.codec)
        /// The file could not be opened or read.
        public static let io = Code(.io)

        public var description: String { base.rawValue }
    }

    /// The failure's category.
    public let code: Code
    /// A sentence a person can act on, e.g. "WAV: data chunk declares 96000 bytes but only 1200 remain".
    public let message: String

    /// Creates an error; callers normally use the static helpers.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    static func truncated(_ message: String) -> AudioError { AudioError(.truncated, message) }
    static func corrupt(_ message: String) -> AudioError { AudioError(.corrupt, message) }
    static func unsupported(_ message: String) -> AudioError { AudioError(.unsupported, message) }
    static func codec(_ message: String) -> AudioError { AudioError(.codec, message) }

    public var description: String { message }
}
