import NIOCore

extension WebSocketClient {
    /// Where a `WebSocketClient` connects and how its socket is set up.
    public struct Configuration: Sendable {
        /// The server's host name or IP address; also the upgrade request's `Host` header.
        public var host: String
        /// The server's port.
        public var port: Int
        /// The upgrade request's path with its query (e.g. `/sessions/ABC123/player/u1?token=…`).
        public var path: String
        /// The local IP address to connect from (nil: the system's choice; an unparsable one is ignored).
        public var sourceAddress: String?
        /// Whether Nagle's algorithm is off (`TCP_NODELAY`).
        public var noDelay: Bool
        /// The outbound buffer's watermarks, which drive `isWritable` and `.writable` (nil: NIO's default).
        public var writeBufferWaterMark: ChannelOptions.Types.WriteBufferWaterMark?
        /// The kernel send buffer in bytes (`SO_SNDBUF`; nil: the system's default).
        public var sendBufferSize: Int?
        /// How long the TCP connect may take (nil: NIO's default).
        public var connectTimeout: TimeAmount?

        /// A configuration for `path` on `host`:`port` with NIO's socket defaults.
        public init(host: String, port: Int, path: String, sourceAddress: String? = nil, noDelay: Bool = false,
                    writeBufferWaterMark: ChannelOptions.Types.WriteBufferWaterMark? = nil, sendBufferSize: Int? = nil,
                    connectTimeout: TimeAmount? = nil) {
            self.host = host
            self.port = port
            self.path = path
            self.sourceAddress = sourceAddress
            self.noDelay = noDelay
            self.writeBufferWaterMark = writeBufferWaterMark
            self.sendBufferSize = sendBufferSize
            self.connectTimeout = connectTimeout
        }
    }
}
