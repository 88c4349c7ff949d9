#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import NIOCore

/// Stops accepting for a while when `accept` fails for want of descriptors (EMFILE, ENFILE, ENOBUFS, ENOMEM).
///
/// NIO leaves the listener registered for reads after such a failure (its read stays pending), so the event loop
/// would wake at once and fail again, spinning a core while the descriptors stay taken. Turning `autoRead` off takes
/// the listener out of the poll set; it is turned back on after `backoff`.
final class AcceptPause: ChannelInboundHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    private let backoff: TimeAmount
    private let logger: Logger
    private var paused = false

    init(backoff: TimeAmount, logger: Logger) {
        self.backoff = backoff
        self.logger = logger
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? IOError, Self.isExhaustion(error.errnoCode), !paused else {
            return context.fireErrorCaught(error)
        }
        paused = true
        logger.warning("accept paused: no descriptor left", metadata: ["errno": "\(error.errnoCode)"])
        let channel = context.channel
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        try? channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
        channel.eventLoop.scheduleTask(in: backoff) {
            handler.value.paused = false
            try? channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
        }
    }

    /// The errors that mean "no descriptor or buffer left right now".
    static func isExhaustion(_ errno: CInt) -> Bool {
        errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM
    }
}
