/// A text frame pongd sends: a JSON object with a `"type"` and the payload's fields beside it.
///
/// Encode with `MessageCodec.encode(_:)` (stable field names, sorted keys).
package enum ServerMessage: Hashable, Sendable {
    /// `welcome {playerId, resumeToken, lobby}`; a dashboard's has only `lobby`.
    case welcome(Welcome)
    /// `lobby {code, displayCode, state, host, game, players}`: the full snapshot after every change.
    case lobby(LobbySnapshot)
    /// `readiness {canBeReady, checks}` after every change of the player's readiness.
    case readiness(ReadinessReport)
    /// `probe.ping {id, t}`: answer at once with `probe.pong` carrying the same fields.
    case probePing(ProbeStamp)
    /// `probe.upload {seconds}`: send upload-probe filler frames as fast as possible for that long.
    case probeUpload(ProbeUpload)
    /// `connectionTest {uploadMbps, rttMs, rttUnderLoadMs, jitterMs, grade}`.
    case connectionTest(ConnectionTestResult)
    /// `connectionTest {failure, message}`: the test could not finish.
    case connectionTestFailed(ConnectionTestFailure)
    /// `bounce {playerId, streamTime, captureTime, kind, confidence}`.
    case bounce(Bounce)
    /// `stream {state, resolution, fps, uploadKbps, diagnostics?}`.
    case stream(StreamReport)
    /// `error {code, message}`.
    case error(ErrorBody)
    /// `sessionEnded {reason}`; a close with code 4000 follows.
    case sessionEnded(SessionEnded)

    /// The `"type"` strings of server messages.
    package enum Kind: String, Sendable, CaseIterable {
        case welcome, lobby, readiness
        case probePing = "probe.ping"
        case probeUpload = "probe.upload"
        case connectionTest, bounce, stream, error, sessionEnded
    }

    /// This message's `"type"`.
    package var kind: Kind {
        switch self {
        case .welcome: .welcome
        case .lobby: .lobby
        case .readiness: .readiness
        case .probePing: .probePing
        case .probeUpload: .probeUpload
        case .connectionTest, .connectionTestFailed: .connectionTest
        case .bounce: .bounce
        case .stream: .stream
        case .error: .error
        case .sessionEnded: .sessionEnded
        }
    }

    /// The `error` message a client sees for `error`.
    package static func error(_ error: APIError) -> ServerMessage {
        .error(ErrorBody(code: error.code, message: error.message))
    }
}

extension ServerMessage: Codable {
    private enum TypeKey: String, CodingKey { case type, failure }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TypeKey.self)
        let type = try container.decode(String.self, forKey: .type)
        guard let kind = Kind(rawValue: type) else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown message type \(type)")
        }
        switch kind {
        case .welcome: self = .welcome(try Welcome(from: decoder))
        case .lobby: self = .lobby(try LobbySnapshot(from: decoder))
        case .readiness: self = .readiness(try ReadinessReport(from: decoder))
        case .probePing: self = .probePing(try ProbeStamp(from: decoder))
        case .probeUpload: self = .probeUpload(try ProbeUpload(from: decoder))
        case .connectionTest where container.contains(.failure):
            self = .connectionTestFailed(try ConnectionTestFailure(from: decoder))
        case .connectionTest: self = .connectionTest(try ConnectionTestResult(from: decoder))
        case .bounce: self = .bounce(try Bounce(from: decoder))
        case .stream: self = .stream(try StreamReport(from: decoder))
        case .error: self = .error(try ErrorBody(from: decoder))
        case .sessionEnded: self = .sessionEnded(try SessionEnded(from: decoder))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(kind.rawValue, forKey: .type)
        switch self {
        case .welcome(let payload): try payload.encode(to: encoder)
        case .lobby(let payload): try payload.encode(to: encoder)
        case .readiness(let payload): try payload.encode(to: encoder)
        case .probePing(let payload): try payload.encode(to: encoder)
        case .probeUpload(let payload): try payload.encode(to: encoder)
        case .connectionTest(let payload): try payload.encode(to: encoder)
        case .connectionTestFailed(let payload): try payload.encode(to: encoder)
        case .bounce(let payload): try payload.encode(to: encoder)
        case .stream(let payload): try payload.encode(to: encoder)
        case .error(let payload): try payload.encode(to: encoder)
        case .sessionEnded(let payload): try payload.encode(to: encoder)
        }
    }
}
