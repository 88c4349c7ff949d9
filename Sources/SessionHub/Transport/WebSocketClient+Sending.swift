import NIOCore
import NIOWebSocket

extension WebSocketClient {
    /// Whether the outbound buffer is under its high watermark (false before the socket opens).
    public var isWritable: Bool { activeChannel?.isWritable ?? false }

    /// Sends a text frame (masked, as clients must); `flush: false` batches it with the next `flush()`.
    /// `promise` completes once the frame is written (it fails when the socket is not open).
    public func send(text: String, flush: Bool = true, promise: EventLoopPromise<Void>? = nil) {
        send(.text, ByteBuffer(string: text), flush: flush, promise: promise)
    }

    /// Sends a binary frame; `flush: false` batches it with the next `flush()`.
    public func send(binary: ByteBuffer, flush: Bool = true, promise: EventLoopPromise<Void>? = nil) {
        send(.binary, binary, flush: flush, promise: promise)
    }

    /// Sends a text frame and waits until it is written; throws when the socket is not open.
    public func write(text: String) async throws {
        let promise = eventLoop.makePromise(of: Void.self)
        send(text: text, promise: promise)
        try await promise.futureResult.get()
    }

    /// Sends a binary frame and waits until it is written; throws when the socket is not open.
    public func write(binary: ByteBuffer) async throws {
        let promise = eventLoop.makePromise(of: Void.self)
        send(binary: binary, promise: promise)
        try await promise.futureResult.get()
    }

    /// Flushes batched frames.
    public func flush() { activeChannel?.flush() }

    /// Closes the TCP connection without a close frame (a phone losing its network); `promise` completes once closed.
    public func drop(promise: EventLoopPromise<Void>? = nil) {
        guard let channel = activeChannel else {
            promise?.succeed()
            return
        }
        channel.close(promise: promise)
    }

    /// Drops the connection (as `drop()`) and waits until it is closed.
    public func dropAndWait() async {
        let promise = eventLoop.makePromise(of: Void.self)
        drop(promise: promise)
        try? await promise.futureResult.get()
    }

    /// Sends a close frame (1000, normal closure), then closes.
    public func close() {
        guard let channel = activeChannel else { return }
        var data = channel.allocator.buffer(capacity: 2)
        data.writeInteger(UInt16(1000))
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data)
        channel.writeAndFlush(frame).whenComplete { _ in channel.close(promise: nil) }
    }

    private func send(_ opcode: WebSocketOpcode, _ data: ByteBuffer, flush: Bool, promise: EventLoopPromise<Void>?) {
        guard let channel = activeChannel else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        let frame = WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data)
        if flush {
            channel.writeAndFlush(frame, promise: promise)
        } else {
            channel.write(frame, promise: promise)
        }
    }
}
