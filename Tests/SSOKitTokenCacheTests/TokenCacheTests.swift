import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitExtension
import SSOKitStore
import SSOKitTesting
import SSOKitTokenCache
import Synchronization
import Testing

struct RefreshDenied: Error, Equatable {
    let serial: Int
}

@Suite("TokenCache")
struct TokenCacheTests {
    let clock = AdjustableClock()
    let store = InMemoryTokenCacheStore()
    let key = TokenCacheKey(
        application: "com.example.mail", issuer: "https://idp.example.com", clientID: "mail",
        scopes: ["openid", "email", "openid"])

    func cache(key encryption: CacheEncryptionKey = .generate()) -> TokenCache {
        TokenCache(store: store, key: encryption, clock: clock)
    }

    func tokens(expiringIn seconds: TimeInterval, refresh: String? = "rt-1", access: String = "at-1") -> CachedTokens {
        CachedTokens(
            accessToken: access, refreshToken: refresh, tokenType: "Bearer",
            accessTokenExpiresAt: clock.now.addingTimeInterval(seconds), scopes: ["email", "openid"])
    }

    @Test("scopes are normalized and the canonical key round-trips without collisions")
    func keys() {
        #expect(key.scopes == ["email", "openid"])
        #expect(TokenCacheKey(canonical: key.canonical) == key)
        let tricky = TokenCacheKey(application: "a|1:b", issuer: "c", clientID: "d")
        let other = TokenCacheKey(application: "a", issuer: "b|1:c", clientID: "d")
        #expect(tricky.canonical != other.canonical)
        #expect(TokenCacheKey(canonical: tricky.canonical) == tricky)
        #expect(TokenCacheKey(canonical: "garbage") == nil)
    }

    @Test("valid tokens come from the cache without a refresh")
    func hit() async throws {
        let cache = cache()
        try await cache.store(tokens(expiringIn: 3600), for: key)
        let calls = CallCounter()
        let result = try await cache.validTokens(for: key) { _ in
            _ = calls.increment()
            return tokens(expiringIn: 3600, access: "at-2")
        }
        #expect(result.accessToken == "at-1")
        #expect(calls.value == 0)
    }

    @Test("1,000 concurrent callers of an expired entry cause exactly one refresh and all get its tokens")
    func singleFlight() async throws {
        let cache = cache()
        try await cache.store(tokens(expiringIn: 30), for: key)  // inside the 60 s leeway: needs a refresh
        let calls = CallCounter()
        let now = clock.now
        let results = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<1000 {
                group.addTask {
                    try await cache.validTokens(for: key) { current in
                        #expect(current.refreshToken == "rt-1")
                        let serial = calls.increment()
                        try await Task.sleep(for: .milliseconds(50))
                        return CachedTokens(
                            accessToken: "at-fresh-\(serial)", refreshToken: "rt-2",
                            accessTokenExpiresAt: now.addingTimeInterval(3600))
                    }.accessToken
                }
            }
            var all: [String?] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(calls.value == 1)
        #expect(Set(results) == ["at-fresh-1"])
        #expect(try await cache.tokens(for: key)?.refreshToken == "rt-2")
    }

    @Test("an explicit refresh spends the refresh token even while the tokens are valid; concurrent ones share it")
    func forcedRefresh() async throws {
        let cache = cache()
        try await cache.store(tokens(expiringIn: 3600), for: key)
        let calls = CallCounter()
        let now = clock.now
        let results = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await cache.refreshedTokens(for: key) { current in
                        let serial = calls.increment()
                        try await Task.sleep(for: .milliseconds(20))
                        return CachedTokens(
                            accessToken: "at-forced-\(serial)", refreshToken: current.refreshToken,
                            accessTokenExpiresAt: now.addingTimeInterval(3600))
                    }.accessToken
                }
            }
            var all: [String?] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(calls.value == 1)
        #expect(Set(results) == ["at-forced-1"])
        // A later explicit refresh runs again.
        let again = try await cache.refreshedTokens(for: key) { current in
            _ = calls.increment()
            return CachedTokens(accessToken: "at-forced-again", refreshToken: current.refreshToken)
        }
        #expect(again.accessToken == "at-forced-again")
        #expect(calls.value == 2)
        await #expect(throws: TokenCacheError(.notFound, "")) {
            try await cache.refreshedTokens(
                for: TokenCacheKey(application: "other", issuer: "i", clientID: "c")
            ) { $0 }
        }
    }

    @Test("a failed refresh reaches every waiter as the same error, and the entry is unchanged")
    func failedRefresh() async throws {
        let cache = cache()
        try await cache.store(tokens(expiringIn: 0), for: key)
        let calls = CallCounter()
        let errors = await withTaskGroup(of: RefreshDenied?.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    do {
                        _ = try await cache.validTokens(for: key) { _ in
                            let serial = calls.increment()
                            try await Task.sleep(for: .milliseconds(50))
                            throw RefreshDenied(serial: serial)
                        }
                        return nil
                    } catch {
                        return error as? RefreshDenied
                    }
                }
            }
            var all: [RefreshDenied?] = []
            for await error in group { all.append(error) }
            return all
        }
        #expect(calls.value == 1)
        #expect(errors.allSatisfy { $0 == RefreshDenied(serial: 1) })
        #expect(try await cache.tokens(for: key)?.refreshToken == "rt-1")
    }

    @Test("no entry is not_found; an expired entry without refresh token is not_refreshable")
    func notRefreshable() async throws {
        let cache = cache()
        await #expect(throws: TokenCacheError(.notFound, "")) {
            try await cache.validTokens(for: key) { $0 }
        }
        try await cache.store(tokens(expiringIn: -10, refresh: nil), for: key)
        await #expect(throws: TokenCacheError(.notRefreshable, "")) {
            try await cache.validTokens(for: key) { $0 }
        }
    }

    @Test("apps are isolated: another app's view neither reads, lists nor deletes the entry")
    func isolation() async throws {
        let cache = cache()
        let mail = cache.application("com.example.mail")
        let chat = cache.application("com.example.chat")
        try await mail.store(tokens(expiringIn: 3600), issuer: "https://idp.example.com", clientID: "shared")
        #expect(try await chat.entries().entries.isEmpty)
        await #expect(throws: TokenCacheError(.notFound, "")) {
            try await chat.validTokens(issuer: "https://idp.example.com", clientID: "shared") { $0 }
        }
        try await chat.remove(issuer: "https://idp.example.com", clientID: "shared")
        #expect(try await mail.entries().entries.count == 1)
        let found = try await mail.validTokens(issuer: "https://idp.example.com", clientID: "shared") { $0 }
        #expect(found.accessToken == "at-1")
    }

    @Test("values are sealed: the stored bytes hold no token, and a row moved to another app's key is unreadable")
    func sealedAtRest() async throws {
        let encryption = CacheEncryptionKey.generate()
        let cache = cache(key: encryption)
        let victim = TokenCacheKey(application: "com.example.mail", issuer: "https://idp.example.com", clientID: "c")
        let attacker = TokenCacheKey(application: "com.evil", issuer: "https://idp.example.com", clientID: "c")
        try await cache.store(tokens(expiringIn: 3600, access: "at-victim-secret"), for: victim)
        try await cache.store(tokens(expiringIn: 3600, access: "at-attacker"), for: attacker)
        let victimRow = try #require(try await store.row(for: victim.canonical))
        #expect(!String(decoding: victimRow.sealed, as: UTF8.self).contains("at-victim-secret"))

        // The attacker copies the victim's ciphertext into its own row.
        await store.overwriteSealed(key: attacker.canonical, with: victimRow.sealed)
        let fresh = TokenCache(store: store, key: encryption, clock: clock)
        await #expect(throws: TokenCacheError(.entryUnreadable, "")) { try await fresh.tokens(for: attacker) }
        let listing = try await fresh.entries(application: "com.evil")
        #expect(listing.entries.isEmpty)
        #expect(listing.unreadable == [attacker.canonical])

        // Another key opens nothing.
        let stranger = TokenCache(store: store, key: .generate(), clock: clock)
        await #expect(throws: TokenCacheError(.entryUnreadable, "")) { try await stranger.tokens(for: victim) }
    }

    @Test("purge removes expired entries of one app only")
    func purge() async throws {
        let cache = cache()
        try await cache.store(tokens(expiringIn: 10, refresh: nil), for: key)
        let other = TokenCacheKey(application: "com.other", issuer: "i", clientID: "c")
        try await cache.store(tokens(expiringIn: 10, refresh: nil), for: other)
        clock.advance(20)
        #expect(try await cache.purgeExpired(application: key.application) == 1)
        #expect(try await cache.tokens(for: key) == nil)
        #expect(try await cache.tokens(for: other) != nil)
    }

    @Test("one-time entries are consumed exactly once and expire")
    func oneTime() async throws {
        let cache = cache()
        #expect(
            try await cache.putOneTime(
                Array("nonce+verifier".utf8), namespace: "oidc-login", id: "state-1", lifetime: 600))
        #expect(try await !cache.putOneTime([1], namespace: "oidc-login", id: "state-1", lifetime: 600))
        let taken = try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            for _ in 0..<50 { group.addTask { try await cache.takeOneTime(namespace: "oidc-login", id: "state-1") } }
            var values: [[UInt8]] = []
            for try await value in group { if let value { values.append(value) } }
            return values
        }
        #expect(taken == [Array("nonce+verifier".utf8)])
        #expect(try await cache.putOneTime([2], namespace: "oidc-login", id: "state-2", lifetime: 5))
        clock.advance(6)
        #expect(try await cache.takeOneTime(namespace: "oidc-login", id: "state-2") == nil)
    }

    @Test("the SAML replay guard refuses a second use until the assertion expires")
    func replayGuard() async throws {
        let replay = TokenCacheReplayGuard(cache: cache())
        let expiry = clock.now.addingTimeInterval(300)
        #expect(try await replay.recordFirstUse(assertionID: "_a1", issuer: "idp", expiry: expiry))
        #expect(try await !replay.recordFirstUse(assertionID: "_a1", issuer: "idp", expiry: expiry))
        #expect(try await replay.recordFirstUse(assertionID: "_a1", issuer: "other-idp", expiry: expiry))
        clock.advance(301)
        #expect(try await replay.recordFirstUse(assertionID: "_a1", issuer: "idp", expiry: expiry + 600))
    }

    @Test("a cache key file round-trips; malformed keys are invalid_key")
    func encryptionKeys() throws {
        let key = CacheEncryptionKey.generate()
        #expect(try CacheEncryptionKey(base64: key.base64 + "\n").base64 == key.base64)
        #expect(throws: TokenCacheError(.invalidKey, "")) { try CacheEncryptionKey(base64: "c2hvcnQ=") }
        #expect(throws: TokenCacheError(.invalidKey, "")) { try CacheEncryptionKey(bytes: []) }
    }
}

@Suite("InMemoryTokenCacheStore limits")
struct InMemoryTokenCacheStoreLimitTests {
    @Test("one-time entries beyond the capacity are capacity_exceeded; expired ones make room")
    func onceCapacity() async throws {
        let clock = AdjustableClock()
        let cache = TokenCache(store: InMemoryTokenCacheStore(onceCapacity: 2), key: .generate(), clock: clock)
        #expect(try await cache.putOneTime([1], namespace: "n", id: "a", lifetime: 10))
        #expect(try await cache.putOneTime([2], namespace: "n", id: "b", lifetime: 10))
        await #expect(throws: TokenCacheError(.capacityExceeded, "")) {
            try await cache.putOneTime([3], namespace: "n", id: "c", lifetime: 10)
        }
        clock.advance(11)
        #expect(try await cache.putOneTime([3], namespace: "n", id: "c", lifetime: 10))
    }
}
