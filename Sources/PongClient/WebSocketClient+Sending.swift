import NIOCore
import NIOWebSocket

extension WebSocketClient {
    /// Whether the socket is open (the upgrade completed, not closed yet) and its outbound buffer is under its high
    /// watermark.
    public var isWritable: Bool { activeChannel?.isWritable ?? false }

    /// Sends a text frame (masked, as clients must) and flushes. `promise` completes once the frame is written.
    /// Before the upgrade completes, or once the socket closed, the frame is dropped and `promise` fails.
    public func send(text: String, promise: EventLoopPromise<Void>? = nil) {
        send(.text, ByteBuffer(string: text), flush: true, promise: promise)
    }

    /// Sends a binary frame; `flush: false` batches it with the next `flush()`. Dropped (and `promise` failed) as a
    /// text frame when the socket is not open.
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
    /// A connect or upgrade still under way is abandoned: `upgraded` fails and `.closed(code: nil)` follows.
    public func drop(promise: EventLoopPromise<Void>? = nil) {
        guard let channel = channelToDrop() else {
            promise?.succeed()
            return
        }
        channel.close(promise: nil)
        if let promise { channel.closeFuture.cascade(to: promise) }
    }

    /// Stops reading, and so answering pings, without closing (a phone that vanished without a FIN: its radio gone,
    /// its TCP connection left open). Nothing more is reported until `drop()`.
    public func stopReading() {
        guard let channel = activeChannel else { return }
        channel.eventLoop.execute { try? channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false) }
    }

    /// Drops the connection (as `drop()`) and waits until it is closed.
    public func dropAndWait() async {
        let promise = eventLoop.makePromise(of: Void.self)
        drop(promise: promise)
        try? await promise.futureResult.get()
    }

    /// Sends a close frame (1000, normal closure), then closes; before the upgrade completes it just drops the
    /// connection (as `drop()`).
    public func close() {
        guard let channel = activeChannel else { return drop() }
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
