/// A text frame a phone sends on its WebSocket: a JSON object with a `"type"` and the payload's fields beside it.
///
/// Decode frames with `MessageCodec.decodeClientMessage(_:)`, which turns every bad input into a
/// `MessageDecodingError`; the `Codable` conformance is the field layout (also used by `pong-player-sim`).
package enum ClientMessage: Hashable, Sendable {
    /// `hello {resumeToken?}`: a player's first message on each socket.
    case hello(Hello)
    /// `permissions {camera, microphone, notifications?}`.
    case permissions(Permissions)
    /// `streamConfig {quality, fps}`.
    case streamConfig(StreamConfig)
    /// `battery {level, charging}`.
    case battery(Battery)
    /// `connectionTest.start {}`.
    case connectionTestStart
    /// `probe.pong {id, t}`: the echo of a `probe.ping`.
    case probePong(ProbeStamp)
    /// `ready {}`.
    case ready
    /// `unready {}`.
    case unready
    /// `mute {video, audio}`.
    case mute(Mute)
    /// `leave {}`.
    case leave
    /// `audio.preSkip {preSkip}`: the audio track's encoder delay, given after `POST /streams/start`.
    case audioPreSkip(AudioPreSkip)

    /// The `"type"` strings of client messages.
    package enum Kind: String, Sendable, CaseIterable {
        case hello, permissions, streamConfig, battery
        case connectionTestStart = "connectionTest.start"
        case probePong = "probe.pong"
        case ready, unready, mute, leave
        case audioPreSkip = "audio.preSkip"
    }

    /// This message's `"type"`.
    package var kind: Kind {
        switch self {
        case .hello: .hello
        case .permissions: .permissions
        case .streamConfig: .streamConfig
        case .battery: .battery
        case .connectionTestStart: .connectionTestStart
        case .probePong: .probePong
        case .ready: .ready
        case .unready: .unready
        case .mute: .mute
        case .leave: .leave
        case .audioPreSkip: .audioPreSkip
        }
    }
}

extension ClientMessage: Codable {
    private enum TypeKey: String, CodingKey { case type }

    /// Thrown while decoding a message whose `"type"` this server does not know (`MessageCodec` maps it to
    /// `unknownType`).
    package struct UnknownType: Error {
        package let type: String
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TypeKey.self)
        let type = try container.decode(String.self, forKey: .type)
        guard let kind = Kind(rawValue: type) else { throw UnknownType(type: type) }
        switch kind {
        case .hello: self = .hello(try Hello(from: decoder))
        case .permissions: self = .permissions(try Permissions(from: decoder))
        case .streamConfig: self = .streamConfig(try StreamConfig(from: decoder))
        case .battery: self = .battery(try Battery(from: decoder))
        case .connectionTestStart: self = .connectionTestStart
        case .probePong: self = .probePong(try ProbeStamp(from: decoder))
        case .ready: self = .ready
        case .unready: self = .unready
        case .mute: self = .mute(try Mute(from: decoder))
        case .leave: self = .leave
        case .audioPreSkip: self = .audioPreSkip(try AudioPreSkip(from: decoder))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(kind.rawValue, forKey: .type)
        switch self {
        case .hello(let payload): try payload.encode(to: encoder)
        case .permissions(let payload): try payload.encode(to: encoder)
        case .streamConfig(let payload): try payload.encode(to: encoder)
        case .battery(let payload): try payload.encode(to: encoder)
        case .probePong(let payload): try payload.encode(to: encoder)
        case .mute(let payload): try payload.encode(to: encoder)
        case .audioPreSkip(let payload): try payload.encode(to: encoder)
        case .connectionTestStart, .ready, .unready, .leave: break
        }
    }
}
