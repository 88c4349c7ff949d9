import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP client that does what hostile clients do: raw bytes, partial requests, no reading, a tiny receive
/// buffer. Never raises SIGPIPE (`MSG_NOSIGNAL`).
final class RawSocket: @unchecked Sendable {
    struct Failure: Error { var what: String }

    private let fd: Int32

    /// Connects to 127.0.0.1:`port`; `receiveBuffer` shrinks SO_RCVBUF first (a peer that barely reads).
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(what: "socket") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            Glibc.close(fd)
            throw Failure(what: "connect: errno \(errno)")
        }
    }

    private var closed = false
    /// errno of the read that ended the connection (0 for an orderly close).
    private(set) var lastError: Int32 = 0

    deinit { close() }

    /// Closes the connection (once).
    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    /// Writes every byte; throws once the server closed or reset the connection.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw Failure(what: "send: errno \(errno)") }
            offset += written
        }
    }

    /// Writes a string's UTF-8 bytes.
    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// What arrives within `timeout`: bytes, `[]` when nothing came, nil once the server closed (EOF or reset).
    func receive(timeout: Duration) -> [UInt8]? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&poller, 1, milliseconds) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0, errno == EINTR || errno == EAGAIN { return [] }
        guard count > 0 else {
            lastError = count < 0 ? errno : 0
            return nil
        }
        return Array(buffer[..<count])
    }

    /// Reads until the server closes or `timeout` passes; returns what came and whether it closed.
    func readUntilClosed(timeout: Duration) -> (bytes: [UInt8], closed: Bool) {
        let end = ContinuousClock.now + timeout
        var bytes: [UInt8] = []
        while ContinuousClock.now < end {
            guard let chunk = receive(timeout: .milliseconds(50)) else { return (bytes, true) }
            bytes += chunk
        }
        return (bytes, false)
    }

    /// Reads until `bytes` hold `marker` (or the server closes, or `timeout` passes).
    func read(until marker: String, timeout: Duration) -> String {
        let end = ContinuousClock.now + timeout
        var bytes: [UInt8] = []
        while ContinuousClock.now < end, !String(decoding: bytes, as: UTF8.self).contains(marker) {
            guard let chunk = receive(timeout: .milliseconds(50)) else { break }
            bytes += chunk
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
