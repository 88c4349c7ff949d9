/// Frame and rate limits of the WebSocket endpoints (docs/PROTOCOL.md).
package enum WebSocketLimits {
    /// Largest text message accepted; bigger ones get an `error` message and are dropped.
    package static let maxTextBytes = 64 * 1024
    /// Largest frame or reassembled message at all (a media frame); bigger ones close the socket (1009).
    package static let maxFrameBytes = 256 * 1024
    /// Most fragments one message may come in; more close the socket (1009), as a message too big would.
    package static let maxFragments = 64
    /// Text messages: burst and sustained rate per socket before it is closed with 4008.
    package static let textBurst: Double = 60
    package static let textPerSecond: Double = 30
    /// Binary frames: burst and sustained rate per socket (video, audio and filler frames under 1 KiB together;
    /// bulk probe filler is not counted, see `FillerBatch`).
    package static let binaryBurst: Double = 4000
    package static let binaryPerSecond: Double = 2000
}
