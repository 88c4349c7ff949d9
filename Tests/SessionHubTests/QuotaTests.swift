@testable import PongWire
import Testing
@testable import SessionHub

/// Issue 12, item 6 (quotas), the pure parts: the user → sessions index, photo bytes, the purge schedule.
@Suite("Quotas")
struct QuotaTests {
    private let t0 = ContinuousClock.now
    private let ana = UserID("ana")
    private let bo = UserID("bo")

    private func code(_ text: String) throws -> SessionCode { try #require(SessionCode(userInput: text)) }

    @Test("a host reserves up to the limit; a live code is never handed out twice; ending one frees a place")
    func reserve() throws {
        var index = UserSessionIndex()
        let codes = try ["AAA222", "AAA223", "AAA224"].map(code)
        #expect(index.reserve(codes[0], host: ana, limit: 2) == .reserved)
        #expect(index.reserve(codes[0], host: bo, limit: 2) == .codeTaken)
        #expect(index.reserve(codes[1], host: ana, limit: 2) == .reserved)
        #expect(index.reserve(codes[2], host: ana, limit: 2) == .tooManySessions)
        index.remove(codes[0])
        #expect(index.hosted(by: ana) == 1 && !index.isLive(codes[0]))
        #expect(index.reserve(codes[2], host: ana, limit: 2) == .reserved)
    }

    @Test("a user's sessions are those they host or sit in, and only while the session is live")
    func sessionsOfUser() throws {
        var index = UserSessionIndex()
        let (first, second) = (try code("BBB222"), try code("BBB223"))
        index.add(host: ana, of: first)
        index.add(host: bo, of: second)
        index.add(member: ana, of: second)
        index.add(member: ana, of: second)
        #expect(index.sessions(of: ana) == [first, second] && index.sessions(of: bo) == [second])
        #expect(index.hosted(by: ana) == 1)
        index.remove(second)
        #expect(index.sessions(of: ana) == [first] && index.sessions(of: bo).isEmpty && index.hosted(by: bo) == 0)
        index.remove(first)
        #expect(index.trackedUsers == 0)
    }

    @Test("20,000 live sessions: a user's lookup still returns only their own")
    func manySessions() throws {
        var index = UserSessionIndex()
        for number in 0..<20_000 {
            let text = String(number, radix: 32).uppercased().map { SessionCode.alphabet[Int(String($0), radix: 32)!] }
            let code = try code(String(repeating: "A", count: 6 - text.count) + String(text))
            index.add(host: UserID("host-\(number)"), of: code)
            if number % 5_000 == 0 { index.add(member: ana, of: code) }
        }
        #expect(index.sessions(of: ana).count == 4 && index.trackedUsers == 20_001)
    }

    @Test("photo bytes: a user's burst, then Retry-After for the bytes still missing; another user goes on")
    func photoBytesPerUser() {
        let mib = 1024.0 * 1024
        var limiter = PhotoUploadLimiter(userBurst: 4 * mib, userPerSecond: mib / 60, addressBurst: 100 * mib,
                                         addressPerSecond: 100 * mib)
        let first = limiter.attempt(user: ana, address: "10.0.0.1", bytes: 2 * 1024 * 1024, now: t0)
        let second = limiter.attempt(user: ana, address: "10.0.0.1", bytes: 2 * 1024 * 1024, now: t0)
        let third = limiter.attempt(user: ana, address: "10.0.0.1", bytes: 1024 * 1024, now: t0)
        let other = limiter.attempt(user: bo, address: "10.0.0.1", bytes: 2 * 1024 * 1024, now: t0)
        let later = limiter.attempt(user: ana, address: "10.0.0.1", bytes: 1024 * 1024, now: t0 + .seconds(60))
        #expect(first == nil && second == nil && third == 60 && other == nil && later == nil)
    }

    @Test("photo bytes: all users of one address share its budget")
    func photoBytesPerAddress() {
        let mib = 1024.0 * 1024
        var limiter = PhotoUploadLimiter(userBurst: 8 * mib, userPerSecond: mib, addressBurst: 3 * mib,
                                         addressPerSecond: mib / 60)
        let results = [ana, bo, UserID("cy")].map {
            limiter.attempt(user: $0, address: "10.0.0.1", bytes: 1024 * 1024, now: t0)
        }
        let fourth = limiter.attempt(user: UserID("dee"), address: "10.0.0.1", bytes: 1024 * 1024, now: t0)
        let elsewhere = limiter.attempt(user: UserID("dee"), address: "10.0.0.2", bytes: 1024 * 1024, now: t0)
        #expect(results == [nil, nil, nil] && fourth == 60 && elsewhere == nil)
    }

    @Test("a photo burst below the largest photo is raised to it, so a valid photo always passes eventually")
    func photoBurstFloor() {
        var limiter = PhotoUploadLimiter(userBurst: 1, userPerSecond: 1, addressBurst: 1, addressPerSecond: 1)
        #expect(limiter.attempt(user: ana, address: "a", bytes: ProfilePhoto.maxBytes, now: t0) == nil)
    }

    @Test("a byte bucket refuses a cost it has not got, and says how long until it has")
    func costlyBucket() {
        var bucket = TokenBucket(capacity: 100, perSecond: 10, now: t0)
        let taken = [bucket.take(60, now: t0), bucket.take(60, now: t0)]
        let wait = bucket.secondsUntilAvailable(60, now: t0)
        let over = bucket.secondsUntilAvailable(101, now: t0)
        #expect(taken == [true, false] && wait == 2 && over == .infinity)
    }

    @Test("guests are counted per IPv4 address and per IPv6 /64, as code guesses are")
    func guestAddressKeys() {
        var limits = HubConfiguration.Quotas()
        limits.guestBurst = 1
        let ledger = QuotaLedger(limits: limits)
        let results = ["2001:db8::1", "2001:db8::2", "2001:db8:0:1::1", "10.0.0.1", "10.0.0.2", "10.0.0.1"]
            .map { ledger.admitGuest(address: $0, now: t0) == nil }
        #expect(results == [true, false, true, true, true, false])
    }

    @Test("the purge runs at most once per interval")
    func purgeSchedule() {
        var schedule = PurgeSchedule(interval: .seconds(3600))
        let runs = [t0, t0 + .seconds(10), t0 + .seconds(3599), t0 + .seconds(3600), t0 + .seconds(3700)]
            .map { schedule.due(now: $0) }
        #expect(runs == [true, false, false, true, false])
    }
}
