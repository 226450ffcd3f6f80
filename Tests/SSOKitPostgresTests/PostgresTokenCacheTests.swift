import Foundation
import PostgresNIO
import PostgresTestSupport
import SSOKitConformance
import SSOKitExtension
import SSOKitPostgres
import SSOKitStore
import SSOKitTesting
import SSOKitTokenCache
import Testing

@Suite("TokenCache over PostgreSQL", .timeLimit(.minutes(5)))
struct PostgresTokenCacheTests {
    let clock = AdjustableClock()
    let key = TokenCacheKey(application: "com.example.mail", issuer: "https://idp.example.com", clientID: "mail")

    func expiring(_ seconds: TimeInterval, access: String = "at-1") -> CachedTokens {
        CachedTokens(
            accessToken: access, refreshToken: "rt-1", accessTokenExpiresAt: clock.now.addingTimeInterval(seconds))
    }

    @Test("entries survive a new connection, and the stored bytes hold no token")
    func persistence() async throws {
        try await PostgresTestServer.withDatabase { (url) async throws in
            let encryption = CacheEncryptionKey.generate()
            let writer = try await PostgresTokenCacheStore.connect(url: url)
            try await TokenCache(store: writer, key: encryption, clock: clock)
                .store(expiring(3600, access: "at-secret-value"), for: key)
            await writer.shutdown()
            let reader = try await PostgresTokenCacheStore.connect(url: url)
            #expect(
                try await TokenCache(store: reader, key: encryption, clock: clock).tokens(for: key)?.accessToken
                    == "at-secret-value")
            await reader.shutdown()
            let raw = try await PostgresTestServer.execute(url, ["SELECT encode(sealed, 'escape') FROM ssokit_entries"])
            let text = try raw.map { try $0.decode(String.self) }.joined()
            #expect(!text.isEmpty)
            #expect(!text.contains("at-secret-value"))
        }
    }

    @Test("a row swapped between apps in the database is reported unreadable, not returned")
    func swappedRows() async throws {
        try await PostgresTestServer.withStore { (store, _) async throws in
            let encryption = CacheEncryptionKey.generate()
            let cache = TokenCache(store: store, key: encryption, clock: clock)
            let attacker = TokenCacheKey(application: "com.evil", issuer: key.issuer, clientID: key.clientID)
            try await cache.store(expiring(3600, access: "at-victim"), for: key)
            try await cache.store(expiring(3600, access: "at-evil"), for: attacker)
            let victimRow = try #require(try await store.row(for: key.canonical))
            try await store.overwriteSealed(key: attacker.canonical, with: victimRow.sealed)
            let fresh = TokenCache(store: store, key: encryption, clock: clock)
            let listing = try await fresh.entries(application: "com.evil")
            #expect(listing.entries.isEmpty)
            #expect(listing.unreadable == [attacker.canonical])
            await #expect(throws: TokenCacheError(.entryUnreadable, "")) { try await fresh.tokens(for: attacker) }
            #expect(try await fresh.tokens(for: key)?.accessToken == "at-victim")
        }
    }

    @Test("a refresh that fails reaches the caller unchanged and leaves the stored tokens as they were")
    func failedRefresh() async throws {
        try await PostgresTestServer.withStore { (store, _) async throws in
            let cache = TokenCache(store: store, key: .generate(), clock: clock)
            try await cache.store(expiring(0), for: key)
            let before = try await store.row(for: key.canonical)
            await #expect(throws: RefreshDenied(serial: 1)) {
                _ = try await cache.validTokens(for: key) { _ in throw RefreshDenied(serial: 1) }
            }
            #expect(try await store.row(for: key.canonical) == before)
        }
    }

    @Test("one-time entries are shared between stores and taken once")
    func oneTimeAcrossStores() async throws {
        try await PostgresTestServer.withDatabase { (url) async throws in
            let encryption = CacheEncryptionKey.generate()
            let firstStore = try await PostgresTokenCacheStore.connect(url: url)
            let secondStore = try await PostgresTokenCacheStore.connect(url: url)
            let first = TokenCache(store: firstStore, key: encryption, clock: clock)
            let second = TokenCache(store: secondStore, key: encryption, clock: clock)
            #expect(try await first.putOneTime([7], namespace: "oidc-login", id: "s", lifetime: 60))
            #expect(try await !second.putOneTime([8], namespace: "oidc-login", id: "s", lifetime: 60))
            #expect(try await second.takeOneTime(namespace: "oidc-login", id: "s") == [7])
            #expect(try await first.takeOneTime(namespace: "oidc-login", id: "s") == nil)
            #expect(try await first.recordOnce(namespace: "saml", id: "_a", until: clock.now + 60))
            #expect(try await !second.recordOnce(namespace: "saml", id: "_a", until: clock.now + 60))
            await firstStore.shutdown()
            await secondStore.shutdown()
        }
    }

    @Test("assertion IDs of one IdP stay apart: two distinct IDs are accepted, a replay is refused")
    func replayGuardKeepsIDsApart() async throws {
        try await PostgresTestServer.withDatabase { (url) async throws in
            let encryption = CacheEncryptionKey.generate()
            let firstStore = try await PostgresTokenCacheStore.connect(url: url)
            let secondStore = try await PostgresTokenCacheStore.connect(url: url)
            let first = TokenCacheReplayGuard(cache: TokenCache(store: firstStore, key: encryption, clock: clock))
            let second = TokenCacheReplayGuard(cache: TokenCache(store: secondStore, key: encryption, clock: clock))
            #expect(
                try await TwoStoreReplayCheck.run(first: first, second: second, now: clock.now) == [
                    true, true, false, true,
                ])
            await firstStore.shutdown()
            await secondStore.shutdown()
        }
    }
}
