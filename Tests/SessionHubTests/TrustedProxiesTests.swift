import Testing
@testable import SessionHub

@Suite("Client addresses behind trusted proxies")
struct TrustedProxiesTests {
    private let proxies = TrustedProxies(cidrs: ["10.0.0.0/8", "fd00::/8", "192.0.2.7"])!
    private let forwarded = TrustedProxies(cidrs: ["10.0.0.0/8", "fd00::/8"], header: .forwarded)!

    private func xff(_ fields: String..., peer: String = "10.0.0.1") -> String {
        proxies.clientAddress(peer: peer, forwarded: [], xForwardedFor: fields)
    }

    private func fwd(_ fields: String..., peer: String = "10.0.0.1") -> String {
        forwarded.clientAddress(peer: peer, forwarded: fields, xForwardedFor: [])
    }

    // MARK: Addresses and blocks

    @Test("IPv4, IPv6 and IPv4-mapped IPv6 parse to their canonical text") func addresses() {
        #expect(IPAddress("192.0.2.1")?.description == "192.0.2.1")
        #expect(IPAddress("2001:DB8:0:0::1")?.description == "2001:db8::1")
        #expect(IPAddress("::ffff:192.0.2.1")?.description == "192.0.2.1")
    }

    @Test("not addresses: names, ports, brackets, zones, garbage, the empty string") func notAddresses() {
        #expect(["localhost", "192.0.2.1:80", "[2001:db8::1]", "fe80::1%eth0", "1.2.3", "", "unknown", "_hidden"]
            .allSatisfy { IPAddress($0) == nil })
    }

    @Test("CIDR blocks: IPv4 and IPv6, bare addresses, host bits ignored") func blocks() {
        #expect(CIDRBlock("10.1.2.3/8")?.contains(IPAddress("10.200.0.1")!) == true)
        #expect(CIDRBlock("10.0.0.0/8")?.contains(IPAddress("11.0.0.1")!) == false)
        #expect(CIDRBlock("2001:db8::/32")?.contains(IPAddress("2001:db8:ffff::1")!) == true)
        #expect(CIDRBlock("192.0.2.7")?.contains(IPAddress("192.0.2.8")!) == false)
        #expect(CIDRBlock("0.0.0.0/0")?.contains(IPAddress("2001:db8::1")!) == false)
    }

    @Test("malformed blocks are refused") func badBlocks() {
        #expect(["10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/x", "10.0.0.0/-1", "nope/8", ""].allSatisfy {
            CIDRBlock($0) == nil
        })
        #expect(TrustedProxies(cidrs: ["10.0.0.0/8", "bad"]) == nil)
    }

    // MARK: X-Forwarded-For

    @Test("a peer that is not trusted is the client; its headers are ignored") func untrustedPeer() {
        #expect(xff("203.0.113.9", peer: "198.51.100.1") == "198.51.100.1")
    }

    @Test("no trusted proxy at all: the peer, whatever the header says") func noProxies() {
        #expect(TrustedProxies().clientAddress(peer: "127.0.0.1", forwarded: [], xForwardedFor: ["203.0.113.9"])
            == "127.0.0.1")
    }

    @Test("one proxy: the address it appended") func oneHop() { #expect(xff("203.0.113.9") == "203.0.113.9") }

    @Test("a spoofed left-most entry is never reached: the right-most untrusted address wins") func spoofed() {
        #expect(xff("1.2.3.4, 203.0.113.9") == "203.0.113.9")
    }

    @Test("many hops: trusted proxies are skipped from the right") func manyHops() {
        #expect(xff("1.2.3.4, 203.0.113.9, 10.9.9.9, 192.0.2.7, fd00::5") == "203.0.113.9")
    }

    @Test("several header fields are one list, in order") func severalFields() {
        #expect(xff("1.2.3.4", "203.0.113.9, 10.0.0.2") == "203.0.113.9")
    }

    @Test("ports and brackets are dropped") func ports() {
        #expect(xff("203.0.113.9:4711") == "203.0.113.9" && xff("[2001:db8::9]:4711") == "2001:db8::9")
        #expect(xff("2001:db8::9") == "2001:db8::9")
    }

    @Test("garbage where the client should be: the proxy that reported it") func garbage() {
        #expect(xff("1.2.3.4, not-an-ip") == "10.0.0.1" && xff("1.2.3.4, not-an-ip, 10.0.0.3") == "10.0.0.3")
        #expect(xff("203.0.113.9:99999") == "10.0.0.1" && xff("[2001:db8::9") == "10.0.0.1")
    }

    @Test("every hop trusted: the left-most") func allTrusted() { #expect(xff("10.0.0.5, 10.0.0.6") == "10.0.0.5") }

    @Test("no header, an empty one, empty entries") func empty() {
        #expect(xff() == "10.0.0.1" && xff("") == "10.0.0.1" && xff(" , 203.0.113.9 ,") == "203.0.113.9")
    }

    @Test("the Forwarded header is ignored when the proxies set X-Forwarded-For") func otherHeaderIgnored() {
        #expect(proxies.clientAddress(peer: "10.0.0.1", forwarded: ["for=203.0.113.9"], xForwardedFor: [])
            == "10.0.0.1")
    }

    // MARK: Forwarded (RFC 7239)

    @Test("RFC 7239's examples: a token, a quoted IPv6 with a port, several pairs") func rfcExamples() {
        #expect(fwd(#"for="_gazonk""#) == "10.0.0.1")
        #expect(fwd(#"For="[2001:db8:cafe::17]:4711""#) == "2001:db8:cafe::17")
        #expect(fwd("for=192.0.2.60;proto=http;by=203.0.113.43") == "192.0.2.60")
        #expect(fwd("for=192.0.2.43, for=198.51.100.17") == "198.51.100.17")
    }

    @Test("obfuscated and unknown nodes stop the walk at the proxy that reported them") func obfuscated() {
        #expect(fwd("for=192.0.2.43, for=unknown") == "10.0.0.1")
        #expect(fwd("for=192.0.2.43, for=_hidden, for=10.0.0.8") == "10.0.0.8")
    }

    @Test("spoofed and trusted hops, several fields") func forwardedHops() {
        #expect(fwd("for=1.2.3.4", "for=203.0.113.9;proto=https, for=\"[fd00::1]:80\"") == "203.0.113.9")
    }

    @Test("malformed: no for, two fors, an unterminated quote, a bad quoted value") func malformed() {
        #expect(fwd("proto=https") == "10.0.0.1")
        #expect(fwd("for=203.0.113.9;for=198.51.100.1") == "10.0.0.1")
        #expect(fwd(#"for="203.0.113.9, for=198.51.100.1"#) == "10.0.0.1")
        #expect(fwd(#"for="203.0.113.9"x"#) == "10.0.0.1")
        #expect(fwd("for") == "10.0.0.1")
    }

    @Test("a quoted comma does not split an element") func quotedComma() {
        #expect(fwd(#"for=203.0.113.9;by="a,b""#) == "203.0.113.9")
    }

    @Test("an IPv4-mapped IPv6 peer is its IPv4 address, trusted or not") func mappedPeer() {
        #expect(xff("203.0.113.9", peer: "::ffff:10.0.0.1") == "203.0.113.9")
        #expect(xff("203.0.113.9", peer: "::ffff:198.51.100.1") == "198.51.100.1")
    }

    @Test("the accept's cap exempts trusted peers only") func trustsPeer() {
        #expect(proxies.trusts(peer: "10.1.1.1") && !proxies.trusts(peer: "11.1.1.1") && !proxies.trusts(peer: "x"))
    }
}
