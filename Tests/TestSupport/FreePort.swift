#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP port on 127.0.0.1 that was free a moment ago: for a server or peer a test starts, or a port nothing listens
/// on. The kernel picks it (bind to port 0), so parallel tests do not collide on a guessed number.
public func freeLoopbackPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            _ = bind(fd, pointer, length)
            return getsockname(fd, pointer, &length)
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
