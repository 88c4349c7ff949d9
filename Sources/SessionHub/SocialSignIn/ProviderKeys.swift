import Foundation
import Logging

/// One provider's signing keys, cached: loaded at start, and loaded again when a token names a `kid` the set does
/// not have (the provider rotated its keys) or the set is an hour old, but never more than once a minute, however
/// many tokens ask. A load that fails keeps the keys loaded before.
actor ProviderKeys {
    /// Least time between two loads.
    static let refreshInterval: TimeInterval = 60
    /// Age after which the next token loads the set again (a key the provider withdrew stops working).
    static let maximumAge: TimeInterval = 3600

    private let source: JWKSSource
    private let now: @Sendable () -> Date
    private let logger: Logger
    private var current: SigningKeys?
    private var loadedAt: Date?
    private var lastAttempt: Date?
    private var loading: Task<Void, Never>?
    /// Loads started, for tests and logs.
    private(set) var loads = 0

    init(source: JWKSSource, now: @escaping @Sendable () -> Date, logger: Logger) {
        self.source = source
        self.now = now
        self.logger = logger
    }

    /// The key set to verify a token signed with `kid`, loaded again first if it lacks `kid` or is stale and the
    /// last load is a minute old; nil while no load has ever succeeded.
    func keys(for kid: String) async -> SigningKeys? {
        let stale = loadedAt.map { now().timeIntervalSince($0) >= Self.maximumAge } ?? true
        if current?.keys[kid] == nil || stale { await refresh() }
        return current
    }

    /// Whole seconds until the next load is allowed (for `Retry-After`), at least 1.
    func secondsUntilRefresh() -> Int {
        guard let lastAttempt else { return 1 }
        return max(1, Int((Self.refreshInterval - now().timeIntervalSince(lastAttempt)).rounded(.up)))
    }

    /// Loads the set unless a load ran less than a minute ago; a caller arriving during a load waits for it.
    func refresh() async {
        if let loading { return await loading.value }
        if let lastAttempt, now().timeIntervalSince(lastAttempt) < Self.refreshInterval { return }
        lastAttempt = now()
        loads += 1
        let task = Task { await self.load() }
        loading = task
        await task.value
        loading = nil
    }

    private func load() async {
        do throws(JWKSError) {
            let document = try await source.fetch(limit: SigningKeys.maxBytes)
            let keys = try await SigningKeys.parse(document, logger: logger)
            current = keys
            loadedAt = now()
            logger.info("provider keys loaded", metadata: [
                "jwks.source": "\(source)", "jwks.kids": "\(keys.keys.keys.sorted().joined(separator: ","))",
            ])
        } catch {
            logger.warning("cannot load provider keys", metadata: ["jwks.source": "\(source)", "error": "\(error)"])
        }
    }
}
