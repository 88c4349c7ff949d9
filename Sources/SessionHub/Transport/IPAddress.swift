#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as bytes (4 or 16), parsed from text. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`)
/// is the IPv4 address: a dual-stack listener sees IPv4 peers that way.
package struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6, in network order.
    package let bytes: [UInt8]

    /// Parses `192.0.2.1` or `2001:db8::1` (no brackets, port or zone); nil for anything else.
    package init?(_ text: some StringProtocol) {
        let text = String(text)
        guard !text.isEmpty, text.utf8.count <= 45 else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let all = withUnsafeBytes(of: &v6) { Array($0) }
        bytes = all.prefix(10).allSatisfy { $0 == 0 } && all[10] == 0xff && all[11] == 0xff ? Array(all[12...]) : all
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// True for an IPv6 address.
    package var isIPv6: Bool { bytes.count == 16 }

    /// The first `bits` bits, the rest zeroed.
    package func prefix(_ bits: Int) -> IPAddress {
        IPAddress(bytes: bytes.enumerated().map { index, byte in
            let kept = min(8, max(0, bits - index * 8))
            return kept == 8 ? byte : byte & ~UInt8(0xff >> kept)
        })
    }

    /// The canonical text (`inet_ntop`): `192.0.2.1`, `2001:db8::1`.
    package var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var copy = bytes
        let family = isIPv6 ? AF_INET6 : AF_INET
        let text = copy.withUnsafeMutableBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard text != nil else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// An address block in CIDR notation: `10.0.0.0/8`, `2001:db8::/32`; a bare address is a block of one.
package struct CIDRBlock: Hashable, Sendable, CustomStringConvertible {
    /// The block's first address (host bits zeroed).
    package let network: IPAddress
    /// Leading bits that must match.
    package let bits: Int

    /// Parses `address/bits` or a bare address; nil for a malformed block or bits beyond the family's width.
    package init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { return nil }
        let width = parts[0].contains(":") ? 128 : 32
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isNumber),
                let bits = Int(parts[1]), bits <= width
            else { return nil }
            // `::ffff:10.0.0.0/104` names IPv4 addresses: its bits count past the 96-bit mapping prefix.
            self.bits = address.bytes.count == 4 && parts[0].contains(":") ? max(0, bits - 96) : bits
        } else {
            bits = address.bytes.count * 8
        }
        network = address.prefix(bits)
    }

    /// True when `address` is inside the block (an IPv4 address is never inside an IPv6 block, nor the reverse).
    package func contains(_ address: IPAddress) -> Bool {
        address.bytes.count == network.bytes.count && address.prefix(bits) == network
    }

    package var description: String { "\(network)/\(bits)" }
}
