import TestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `pongd serve` at its open-file limit: idle connections beyond it must not make the accept loop spin, and the
/// server must serve again once the head deadline has closed them.
@Suite("pongd serve at the descriptor limit", .serialized)
struct DescriptorLimitTests {
    private var pongd: String {
        get throws { try ToolRun.pongd().path }
    }

    /// A TCP connection to 127.0.0.1:`port`, or nil.
    private func connectTo(_ port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
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
            close(fd)
            return nil
        }
        return fd
    }

    /// The status line of `GET /healthz`, or "" when the server does not answer within a second.
    private func healthz(_ port: Int) -> String {
        guard let fd = connectTo(port) else { return "" }
        defer { close(fd) }
        let request = Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 1000) > 0 else { return "" }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self).components(separatedBy: "\r\n")[0] : ""
    }

    /// User and system CPU seconds the process has used (`/proc/PID/stat`).
    private func cpuSeconds(_ pid: Int32) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = text.lastIndex(of: ")")
        else { return 0 }
        let fields = text[text.index(after: end)...].split(separator: " ")
        return Double((Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    @Test("300 idle connections at a 256-descriptor limit: the server idles, then serves once they time out")
    func noSpin() async throws {
        let port = freeLoopbackPort()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pongd-fd-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"ulimit -n 256 && exec "$0" "$@""#, try pongd, "serve", "--port", "\(port)",
                             "--data-dir", folder.path, "--log-level", "error", "--max-connections", "5000",
                             "--max-connections-per-address", "5000", "--request-head-timeout", "3"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: folder)
        }
        var started = false
        for _ in 0..<100 where !started {
            started = healthz(port).hasPrefix("HTTP/1.1 200")
            if !started { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(started)
        let held = (0..<300).compactMap { _ in connectTo(port) }
        defer { held.forEach { close($0) } }
        try await Task.sleep(for: .milliseconds(500))
        let before = cpuSeconds(process.processIdentifier)
        try await Task.sleep(for: .seconds(2))
        let cores = (cpuSeconds(process.processIdentifier) - before) / 2
        // Before the accept backoff the listener spun on EMFILE at a full core.
        #expect(cores < 0.3, "the server used \(cores) cores while idle connections held every descriptor")
        var served = false
        for _ in 0..<60 where !served {
            served = healthz(port).hasPrefix("HTTP/1.1 200")
            if !served { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(served, "a new client is served once the idle connections passed their head deadline")
    }
}
