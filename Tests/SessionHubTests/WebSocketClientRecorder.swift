import NIOCore
import NIOPosix
@testable import PongClient
@testable import SessionHub

/// Starts a client to `path` on 127.0.0.1:`port` whose events go to a new recorder.
func recordedClient(port: Int, path: String) -> (WebSocketClient, Recorder) {
    let loop = MultiThreadedEventLoopGroup.singleton.next()
    let recorder = Recorder(loop: loop)
    let continuation = recorder.continuation
    let client = WebSocketClient.connect(.init(host: "127.0.0.1", port: port, path: path), on: loop) { _, event in
        continuation.yield(Recorder.line(event))
    }
    return (client, recorder)
}

/// Waits long enough for a second `.closed` to show if there were one: every report follows its cause on the client's
/// loop at once, so a moment suffices.
func afterASecondCloseCouldCome() async throws {
    try await Task.sleep(for: .milliseconds(200))
}

/// Every event a client reported, as a line of text, in order; read it from one task.
final class Recorder {
    /// Where the client's events go (on its loop).
    let continuation: AsyncStream<String>.Continuation
    private var iterator: AsyncStream<String>.AsyncIterator
    private let loop: any EventLoop

    /// Thrown when the client reported nothing awaited for 10 s.
    struct TimedOut: Error, CustomStringConvertible {
        var events: [String]
        var description: String { "timed out after \(events)" }
    }

    init(loop: any EventLoop) {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        self.continuation = continuation
        self.iterator = stream.makeAsyncIterator()
        self.loop = loop
    }

    /// An event as a line: "opened", "text", "error" (a text message of type error), "writable", "closed CODE" or
    /// "closed -".
    static func line(_ event: WebSocketClient.Event) -> String {
        switch event {
        case .opened: "opened"
        case .text(let text): text.contains(#""type":"error""#) ? "error" : "text"
        case .writable: "writable"
        case .closed(let code): "closed \(code.map(String.init) ?? "-")"
        }
    }

    /// The lines up to and including the first for which `last` holds; throws `TimedOut` after 10 s.
    func lines(through last: (String) -> Bool) async throws -> [String] {
        let continuation = continuation
        let timeout = loop.scheduleTask(in: .seconds(10)) { continuation.finish() }
        defer { timeout.cancel() }
        var lines: [String] = []
        while let line = await iterator.next() {
            if line == "writable" { continue }
            lines.append(line)
            if last(line) { return lines }
        }
        throw TimedOut(events: lines)
    }

    /// The lines up to and including the first `.closed`.
    func closed() async throws -> [String] {
        try await lines(through: { $0.hasPrefix("closed") })
    }

    /// Ends the recording and returns the lines not read yet.
    func rest() async -> [String] {
        continuation.finish()
        var lines: [String] = []
        while let line = await iterator.next() {
            if line != "writable" { lines.append(line) }
        }
        return lines
    }
}
