/// Why the simulator could not do something: a stable `code` (counted per code in the report) and a text.
///
/// A struct with a private code enum, so new cases break no caller (STYLE.md, "Errors").
struct SimError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: String, Hashable, Sendable {
        case badArgument = "bad_argument"
        case badAudio = "bad_audio"
        case badLabels = "bad_labels"
        case http = "http_error"
        case unexpectedReply = "unexpected_reply"
        case socketRefused = "socket_refused"
        case socketClosed = "socket_closed"
        case connectionTest = "connection_test_failed"
        case timeout = "timeout"
    }

    private let kind: Code
    /// What went wrong, for a person.
    let message: String

    private init(_ kind: Code, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The stable snake_case code.
    var code: String { kind.rawValue }
    var description: String { "\(code): \(message)" }

    /// A command-line argument that cannot be used.
    static func badArgument(_ message: String) -> SimError { SimError(.badArgument, message) }
    /// The audio file cannot be streamed.
    static func badAudio(_ message: String) -> SimError { SimError(.badAudio, message) }
    /// The labels CSV cannot be read.
    static func badLabels(_ message: String) -> SimError { SimError(.badLabels, message) }
    /// An HTTP call failed at the transport level or with an unexpected status.
    static func http(_ message: String) -> SimError { SimError(.http, message) }
    /// A reply whose body is not what the protocol says.
    static func unexpectedReply(_ message: String) -> SimError { SimError(.unexpectedReply, message) }
    /// The WebSocket upgrade was refused or the connection could not be made.
    static func socketRefused(_ message: String) -> SimError { SimError(.socketRefused, message) }
    /// The WebSocket closed when it should not have.
    static func socketClosed(_ message: String) -> SimError { SimError(.socketClosed, message) }
    /// The server's connection test failed.
    static func connectionTest(_ message: String) -> SimError { SimError(.connectionTest, message) }
    /// Something did not happen in time.
    static func timeout(_ message: String) -> SimError { SimError(.timeout, message) }
}
