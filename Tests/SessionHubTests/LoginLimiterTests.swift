import Testing
@testable import SessionHub

@Suite("Login limiter: per client address and per account, on an injected clock")
struct LoginLimiterTests {
    private let t0 = ContinuousClock.now

    private func limiter() -> LoginLimiter {
        LoginLimiter(addressBurst: 10, addressPerSecond: 10.0 / 60, accountBurst: 5, accountPerSecond: 1.0 / 60)
    }

    @Test("10 attempts from one address at once, then one every 6 s")
    func perAddress() {
        var limiter = limiter()
        for index in 0..<10 {
            #expect(limiter.attempt(address: "10.0.0.1", account: "a\(index)@x.io", now: t0) == nil)
        }
        #expect(limiter.attempt(address: "10.0.0.1", account: "z@x.io", now: t0) == 6)
        #expect(limiter.attempt(address: "10.0.0.2", account: "z@x.io", now: t0) == nil)
        #expect(limiter.attempt(address: "10.0.0.1", account: "z@x.io", now: t0 + .seconds(6)) == nil)
        #expect(limiter.attempt(address: "10.0.0.1", account: "z@x.io", now: t0 + .seconds(6)) == 6)
    }

    @Test("5 attempts on one account from any addresses, then one a minute")
    func perAccount() {
        var limiter = limiter()
        for index in 0..<5 {
            #expect(limiter.attempt(address: "10.0.1.\(index)", account: "hana@x.io", now: t0) == nil)
        }
        #expect(limiter.attempt(address: "10.0.2.1", account: "hana@x.io", now: t0) == 60)
        #expect(limiter.attempt(address: "10.0.2.1", account: "bo@x.io", now: t0) == nil)
        #expect(limiter.attempt(address: "10.0.2.2", account: "hana@x.io", now: t0 + .seconds(60)) == nil)
    }

    @Test("an address that is limited does not use up the account's budget")
    func addressFirst() {
        var limiter = LoginLimiter(addressBurst: 1, addressPerSecond: 1.0 / 60, accountBurst: 2,
                                   accountPerSecond: 1.0 / 3600)
        #expect(limiter.attempt(address: "evil", account: "hana@x.io", now: t0) == nil)
        for _ in 0..<100 { #expect(limiter.attempt(address: "evil", account: "hana@x.io", now: t0) != nil) }
        #expect(limiter.attempt(address: "home", account: "hana@x.io", now: t0) == nil)
    }

    @Test("a signup (no account) is limited per address only")
    func signups() {
        var limiter = LoginLimiter(addressBurst: 2, addressPerSecond: 1, accountBurst: 1, accountPerSecond: 1)
        #expect(limiter.attempt(address: "a", account: nil, now: t0) == nil)
        #expect(limiter.attempt(address: "a", account: nil, now: t0) == nil)
        #expect(limiter.attempt(address: "a", account: nil, now: t0) == 1)
    }
}
