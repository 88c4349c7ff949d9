import ArgumentParser
import SessionHub

/// `pongd serve`'s flags for session-code guessing, joins per session and reverse proxies (docs/SECURITY.md).
struct AccessOptions: ParsableArguments {
    @Option(help: """
        Failed session-code lookups (unknown codes, or sessions the caller has no part in) one client address may \
        make at once; beyond, --code-guesses-per-minute (429 too_many_code_guesses, socket close 4129).
        """)
    var codeGuessBurst: Double = 20

    @Option(help: "Sustained failed session-code lookups per minute per client address (an IPv6 /64 counts as one).")
    var codeGuessesPerMinute: Double = 20

    @Option(help: "Joins one session accepts at once from users without a seat; beyond, --session-joins-per-minute.")
    var sessionJoinBurst: Double = 32

    @Option(help: "Sustained joins per minute to one session from users without a seat (429 too_many_attempts beyond).")
    var sessionJoinsPerMinute: Double = 32

    @Option(name: .customLong("trusted-proxy"),
            help: """
                A reverse proxy's address or block (CIDR, IPv4 or IPv6, e.g. 10.0.0.0/8 or fd00::/8); repeatable. \
                From these peers the client address is read from --forwarded-header, and the per-address \
                connection cap does not apply to them.
                """)
    var trustedProxies: [String] = []

    @Option(help: "The header the trusted proxies set: x-forwarded-for or forwarded (RFC 7239); the other is ignored.")
    var forwardedHeader = TrustedProxies.Header.xForwardedFor.rawValue

    /// Sets the hub's guessing and join limits; throws a `ValidationError` for a value out of range.
    func apply(to configuration: inout HubConfiguration) throws {
        guard [codeGuessBurst, sessionJoinBurst].allSatisfy({ (1...1_000_000).contains($0) }),
            [codeGuessesPerMinute, sessionJoinsPerMinute].allSatisfy({ (0.001...6_000_000).contains($0) })
        else {
            throw ValidationError("--code-guess-burst/--session-join-burst must be 1–1000000, the per-minute rates "
                + "0.001–6000000")
        }
        configuration.codeGuessBurst = codeGuessBurst
        configuration.codeGuessesPerSecond = codeGuessesPerMinute / 60
        configuration.sessionJoinBurst = sessionJoinBurst
        configuration.sessionJoinsPerSecond = sessionJoinsPerMinute / 60
    }

    /// Sets the trusted proxies; throws a `ValidationError` for a malformed block or header name.
    func apply(to limits: inout TransportLimits) throws {
        guard let header = TrustedProxies.Header(rawValue: forwardedHeader.lowercased()) else {
            throw ValidationError("--forwarded-header takes x-forwarded-for or forwarded")
        }
        guard let proxies = TrustedProxies(cidrs: trustedProxies, header: header) else {
            throw ValidationError("--trusted-proxy takes an IPv4 or IPv6 address or CIDR block, e.g. 10.0.0.0/8")
        }
        limits.trustedProxies = proxies
    }
}
