import Foundation
import SSOKitCore
import SSOKitStore
import SSOKitTesting
import SSOKitTokenCache
import Testing

/// `TokenCache.endSession(for:)`: the local half of a logout, which must never leave a usable session behind.
extension TokenCacheTests {
    @Test("ending a session removes the entry and hands back its tokens for revocation")
    func endSessionRemoves() async throws {
        let cache = cache()
        try await cache.store(tokens(expiringIn: 3600), for: key)
        let ended = try await cache.endSession(for: key)
        #expect(ended.existed)
        #expect(ended.tokens?.refreshToken == "rt-1")
        #expect(ended.tokens?.accessToken == "at-1")
        #expect(try await cache.tokens(for: key) == nil, "gone from memory")
        #expect(try await store.row(for: key.canonical) == nil, "gone from the store")
        await #expect(throws: TokenCacheError(.notFound, "")) {
            _ = try await cache.validTokens(for: key) { $0 }
        }
        let again = try await cache.endSession(for: key)
        #expect(!again.existed)
        #expect(again.tokens == nil)
    }

    @Test("an entry that does not open is removed all the same")
    func endSessionUnreadable() async throws {
        try await cache(key: .generate()).store(tokens(expiringIn: 3600), for: key)
        let ended = try await cache(key: .generate()).endSession(for: key)
        #expect(ended.existed)
        #expect(ended.tokens == nil)
        #expect(try await store.row(for: key.canonical) == nil)
    }

    @Test("a refresh in flight cannot bring the session back: its newer tokens are the ones handed back")
    func endSessionDuringRefresh() async throws {
        let cache = cache()
        try await cache.store(tokens(expiringIn: 3600), for: key)
        let started = CallCounter()
        let refresh = Task {
            try await cache.refreshedTokens(for: key) { _ in
                _ = started.increment()
                try await Task.sleep(for: .milliseconds(200))
                return tokens(expiringIn: 3600, refresh: "rt-2", access: "at-2")
            }
        }
        // Bounded wait until the refresh holds the entry.
        for _ in 0..<2_000 where started.value == 0 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(started.value == 1)
        let ended = try await cache.endSession(for: key)
        #expect(ended.tokens?.refreshToken == "rt-2", "the refreshed tokens are the ones to revoke")
        _ = try await refresh.value
        #expect(try await cache.tokens(for: key) == nil, "the finished refresh did not put its tokens back")
        #expect(try await store.row(for: key.canonical) == nil)
    }

    @Test("a store that cannot delete is store_unavailable, and a second view ends only its own app's session")
    func endSessionFailures() async throws {
        let broken = TokenCache(store: UnwritableStore(), key: .generate(), clock: clock)
        await #expect(throws: TokenCacheError(.storeUnavailable, "")) { _ = try await broken.endSession(for: key) }

        let cache = cache()
        try await cache.store(tokens(expiringIn: 3600), for: key)
        let other = try await cache.application("com.example.other").endSession(
            issuer: key.issuer, clientID: key.clientID, scopes: key.scopes)
        #expect(!other.existed)
        let mine = try await cache.application(key.application).endSession(
            issuer: key.issuer, clientID: key.clientID, scopes: key.scopes)
        #expect(mine.tokens?.accessToken == "at-1")
    }
}

/// A store whose every call fails, as a database that went away would.
private struct UnwritableStore: TokenCacheStore {
    static let failure = TokenCacheError(.storeUnavailable, "the store is gone")

    func row(for key: String) async throws(TokenCacheError) -> StoredRow? { throw Self.failure }
    func update(key: String, _ body: @Sendable (StoredRow?) async throws -> StoredRow?) async throws -> StoredRow? {
        throw Self.failure
    }
    func delete(key: String) async throws(TokenCacheError) { throw Self.failure }
    func rows(application: String) async throws(TokenCacheError) -> [StoredRow] { throw Self.failure }
    func deleteExpired(before date: Date, application: String?) async throws(TokenCacheError) -> Int {
        throw Self.failure
    }
    func insertOnce(namespace: String, id: String, value: [UInt8], expiresAt: Date, now: Date)
        async throws(TokenCacheError) -> Bool
    { throw Self.failure }
    func takeOnce(namespace: String, id: String, now: Date) async throws(TokenCacheError) -> [UInt8]? {
        throw Self.failure
    }
}
