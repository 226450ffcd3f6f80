import Foundation
import SSOKitCore
import SSOKitStore

/// The token cache: entries per (calling app, IdP, client, scopes), sealed at rest, durable before a call returns,
/// with single-flight refresh.
///
/// Reads are answered from memory when the entry is known and still valid beyond the leeway. A refresh runs once per
/// key however many callers ask at once: they all await the same refresh and get the same tokens or the same error.
/// Inside the refresh the store holds the entry exclusively and the entry is re-read first, so a refresh token that
/// another process already spent is never sent again: its newer tokens are returned instead.
public actor TokenCache {
    /// A refresh function: receives the current tokens (with a refresh token) and returns their replacement.
    public typealias Refresh = @Sendable (CachedTokens) async throws -> CachedTokens

    let store: any TokenCacheStore
    let sealer: EntrySealer
    private let clock: any SSOKitClock
    private let leeway: TimeInterval
    private var memory: [String: CachedTokens] = [:]
    private var inFlight: [String: Task<CachedTokens, any Error>] = [:]
    /// Counts the sessions ended; a refresh that was in flight across one does not put its tokens back in memory.
    private var sessionsEnded = 0

    /// Creates a cache over `store`, sealing with `key`. Tokens count as valid only while they stay valid for
    /// `leeway` more seconds (default 60).
    public init(
        store: any TokenCacheStore, key: CacheEncryptionKey, clock: any SSOKitClock = SystemClock(),
        leeway: TimeInterval = 60
    ) {
        self.store = store
        self.sealer = EntrySealer(key: key)
        self.clock = clock
        self.leeway = leeway
    }

    /// A view that can reach only `application`'s entries.
    public nonisolated func application(_ application: String) -> ApplicationTokenCache {
        ApplicationTokenCache(cache: self, application: application)
    }

    /// Stores `tokens` (after a login), durably, replacing any entry.
    public func store(_ tokens: CachedTokens, for key: TokenCacheKey) async throws(TokenCacheError) {
        let canonical = key.canonical
        let row = StoredRow(
            key: canonical, application: key.application, sealed: try sealer.seal(tokens, boundTo: canonical),
            expiresAt: tokens.expiry, version: 0)
        do {
            _ = try await store.update(key: canonical) { _ in row }
        } catch let error as TokenCacheError {
            throw error
        } catch {
            throw TokenCacheError(.storeUnavailable, "the entry could not be written")
        }
        memory[canonical] = tokens
    }

    /// The stored tokens for `key`, valid or not; nil when there are none.
    public func tokens(for key: TokenCacheKey) async throws(TokenCacheError) -> CachedTokens? {
        let canonical = key.canonical
        if let known = memory[canonical] { return known }
        guard let row = try await store.row(for: canonical) else { return nil }
        let tokens = try sealer.open(CachedTokens.self, from: row.sealed, boundTo: canonical)
        memory[canonical] = tokens
        return tokens
    }

    /// Tokens that stay valid beyond the leeway: the cached ones, or new ones from `refresh` (single-flight).
    ///
    /// Throws `TokenCacheError` (`not_found`, `not_refreshable`, `entry_unreadable`, `store_unavailable`) or,
    /// unchanged, the error `refresh` threw.
    public func validTokens(for key: TokenCacheKey, refresh: @escaping Refresh) async throws -> CachedTokens {
        let deadline = clock.now.addingTimeInterval(leeway)
        if let known = memory[key.canonical], known.isValid(until: deadline) { return known }
        return try await singleFlight(key, force: false, refresh: refresh)
    }

    /// Spends the refresh token now, whatever the tokens' expiry (an explicit "refresh" command), and stores the
    /// result. The entry is re-read inside the store's exclusive update, so a concurrent refresh in another process
    /// is seen and its rotated refresh token used; concurrent callers in this process share one refresh.
    ///
    /// Throws like ``validTokens(for:refresh:)``.
    public func refreshedTokens(for key: TokenCacheKey, refresh: @escaping Refresh) async throws -> CachedTokens {
        try await singleFlight(key, force: true, refresh: refresh)
    }

    private func singleFlight(_ key: TokenCacheKey, force: Bool, refresh: @escaping Refresh) async throws
        -> CachedTokens
    {
        let canonical = key.canonical
        if let running = inFlight[canonical] { return try await running.value }

        let task = Task { [store, sealer, clock, leeway] () throws -> CachedTokens in
            let row = try await store.update(key: canonical) { row in
                guard let row else { throw TokenCacheError(.notFound, "no entry for \(key)") }
                let current = try sealer.open(CachedTokens.self, from: row.sealed, boundTo: canonical)
                if !force && current.isValid(until: clock.now.addingTimeInterval(leeway)) { return row }
                guard current.refreshToken != nil else {
                    throw TokenCacheError(.notRefreshable, "the entry for \(key) has no refresh token")
                }
                let fresh = try await refresh(current)
                return StoredRow(
                    key: canonical, application: key.application, sealed: try sealer.seal(fresh, boundTo: canonical),
                    expiresAt: fresh.expiry, version: row.version)
            }
            guard let row else { throw TokenCacheError(.notFound, "no entry for \(key)") }
            return try sealer.open(CachedTokens.self, from: row.sealed, boundTo: canonical)
        }
        inFlight[canonical] = task
        let endedBefore = sessionsEnded
        do {
            let tokens = try await task.value
            inFlight[canonical] = nil
            if sessionsEnded == endedBefore { memory[canonical] = tokens }
            return tokens
        } catch {
            inFlight[canonical] = nil
            throw error
        }
    }

    /// Forgets `canonical` in memory, and makes refreshes in flight forget it too when they finish.
    func forgetInMemory(_ canonical: String) {
        sessionsEnded += 1
        memory[canonical] = nil
    }

    /// Removes the entry. For a logout use ``endSession(for:)``, which also hands back the tokens to revoke.
    public func remove(_ key: TokenCacheKey) async throws(TokenCacheError) {
        let canonical = key.canonical
        try await store.delete(key: canonical)
        memory[canonical] = nil
    }

    /// Every entry of `application`; entries that do not decrypt (tampered, swapped, another key) are reported in
    /// ``TokenCacheListing/unreadable`` and skipped.
    public func entries(application: String) async throws(TokenCacheError) -> TokenCacheListing {
        var listing = TokenCacheListing(entries: [], unreadable: [])
        for row in try await store.rows(application: application) {
            guard let key = TokenCacheKey(canonical: row.key), key.application == application,
                let tokens = try? sealer.open(CachedTokens.self, from: row.sealed, boundTo: row.key)
            else {
                listing.unreadable.append(row.key)
                continue
            }
            listing.entries.append((key, tokens))
        }
        return listing
    }

    /// Removes entries whose expiry has passed (of one app, or of all when nil); returns how many.
    public func purgeExpired(application: String?) async throws(TokenCacheError) -> Int {
        let now = clock.now
        memory = memory.filter { entry in
            guard let expiry = entry.value.expiry, expiry < now else { return true }
            return application.map { TokenCacheKey(canonical: entry.key)?.application != $0 } ?? false
        }
        return try await store.deleteExpired(before: now, application: application)
    }

    /// Keeps `value` (sealed) for `lifetime` seconds under (`namespace`, `id`) unless a live entry exists there:
    /// an OIDC login in flight (state → nonce and PKCE verifier). Returns false when the ID is already taken.
    public func putOneTime(_ value: [UInt8], namespace: String, id: String, lifetime: TimeInterval)
        async throws(TokenCacheError) -> Bool
    {
        let now = clock.now
        let sealed = try sealer.sealBytes(value, boundTo: "once\u{0}\(namespace)\u{0}\(id)")
        return try await store.insertOnce(
            namespace: namespace, id: id, value: sealed, expiresAt: now.addingTimeInterval(lifetime), now: now)
    }

    /// Takes the live one-time value under (`namespace`, `id`): it is returned once, then gone.
    public func takeOneTime(namespace: String, id: String) async throws(TokenCacheError) -> [UInt8]? {
        guard let sealed = try await store.takeOnce(namespace: namespace, id: id, now: clock.now) else { return nil }
        return try sealer.openBytes(sealed, boundTo: "once\u{0}\(namespace)\u{0}\(id)")
    }

    /// Records an ID until `expiry`; false when it is already recorded (a replay).
    public func recordOnce(namespace: String, id: String, until expiry: Date) async throws(TokenCacheError) -> Bool {
        try await store.insertOnce(namespace: namespace, id: id, value: [], expiresAt: expiry, now: clock.now)
    }
}

/// The result of listing one app's entries.
public struct TokenCacheListing: Sendable {
    /// The readable entries.
    public var entries: [(key: TokenCacheKey, tokens: CachedTokens)]
    /// The canonical keys of entries that could not be decrypted or decoded.
    public var unreadable: [String]
}
