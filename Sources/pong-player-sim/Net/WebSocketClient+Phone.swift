import NIOCore
import PongClient
import PongWire

extension WebSocketClient.Configuration {
    /// A phone's player socket at `url` (a `ws://` one), from `source` when given; no Nagle, a 10 s connect timeout,
    /// and bounded buffers so filler cannot pile up ahead of the probe pongs.
    static func phone(_ url: SocketURL, from source: String?) -> Self {
        // A bounded kernel send buffer: filler waiting in it delays the probe pongs behind it (latency under load),
        // and a slow server would otherwise let seconds of filler pile up there. 128 KiB still fills a 12 Mbit/s
        // link with 80 ms of round trip.
        Self(host: url.host, port: url.port, path: url.path, sourceAddress: source, noDelay: true,
             writeBufferWaterMark: .init(low: 32 * 1024, high: 128 * 1024), sendBufferSize: 128 * 1024,
             connectTimeout: .seconds(10))
    }
}
