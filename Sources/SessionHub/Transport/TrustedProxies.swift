/// Reverse proxies whose forwarding header is believed (`pongd serve --trusted-proxy CIDR`, repeatable), and which
/// header they set. Pure: the transport asks it for each request's client address.
///
/// When the TCP peer is inside a trusted block, the header's hops are read from the right: each trusted address is
/// another proxy, and the first address that is not trusted is the client. A hop without a usable address (`unknown`,
/// an obfuscated `_id`, garbage) stops the walk: the client is then the proxy that reported it. If every hop is
/// trusted, the left-most is the client. Anything a client itself wrote is left of what the trusted proxies
/// appended, so a spoofed entry is never reached. Without trusted blocks, or from any other peer, the client is
/// the TCP peer and the headers are ignored.
public struct TrustedProxies: Sendable, Equatable {
    /// Which header the trusted proxies set; the other one is ignored (a client could have written it).
    public enum Header: String, Sendable, Equatable, CaseIterable {
        /// `X-Forwarded-For: client, proxy1, …` (nginx, HAProxy `option forwardfor`, Caddy, Traefik, cloud load
        /// balancers).
        case xForwardedFor = "x-forwarded-for"
        /// `Forwarded: for=client, for=proxy1` (RFC 7239; HAProxy `option forwarded`).
        case forwarded
    }

    /// The trusted blocks.
    package var blocks: [CIDRBlock]
    /// The header they set.
    public var header: Header

    /// No trusted proxy: every client is its TCP peer.
    public init() {
        blocks = []
        header = .xForwardedFor
    }

    /// Proxies in `cidrs` (`10.0.0.0/8`, `2001:db8::/32`, or single addresses) setting `header`; nil if one of the
    /// blocks is malformed.
    public init?(cidrs: [String], header: Header = .xForwardedFor) {
        var blocks: [CIDRBlock] = []
        for text in cidrs {
            guard let block = CIDRBlock(text) else { return nil }
            blocks.append(block)
        }
        self.blocks = blocks
        self.header = header
    }

    /// True when `address` is inside a trusted block.
    package func trusts(_ address: IPAddress) -> Bool {
        blocks.contains { $0.contains(address) }
    }

    /// True when the TCP peer `peer` (its text) is a trusted proxy.
    package func trusts(peer: String) -> Bool {
        !blocks.isEmpty && IPAddress(peer).map(trusts) == true
    }

    /// The client's address for a request from TCP peer `peer` with these header fields (all fields of each
    /// header, in order). Canonical text; the peer as given when it is not an IP address.
    package func clientAddress(peer: String, forwarded: [String], xForwardedFor: [String]) -> String {
        guard let peerAddress = IPAddress(peer) else { return peer }
        guard trusts(peerAddress) else { return peerAddress.description }
        let hops = header == .forwarded ? ForwardedHop.forwarded(forwarded) : ForwardedHop.xForwardedFor(xForwardedFor)
        var client = peerAddress
        for hop in hops.reversed() {
            guard case .address(let address) = hop else { break }
            client = address
            if !trusts(address) { break }
        }
        return client.description
    }
}
