import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitExtension
import SSOKitStore
import SSOKitTesting
import SSOKitTokenCache
import Testing

@Suite("SQLiteTokenCacheStore")
struct SQLiteTokenCacheStoreTests {
    let directory: URL
    let clock = AdjustableClock()
    let key = TokenCacheKey(application: "com.example.mail", issuer: "https://idp.example.com", clientID: "mail")

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-sqlite-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    var path: String { directory.appendingPathComponent("cache.sqlite").path }

    func expiring(_ seconds: TimeInterval, access: String = "at-1") -> CachedTokens {
        CachedTokens(
            accessToken: access, refreshToken: "rt-1", accessTokenExpiresAt: clock.now.addingTimeInterval(seconds))
    }

    @Test("entries survive a reopen, the file is 0600, and its bytes hold no token")
    func persistence() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let encryption = CacheEncryptionKey.generate()
        do {
            let cache = TokenCache(store: try SQLiteTokenCacheStore(path: path), key: encryption, clock: clock)
            try await cache.store(expiring(3600, access: "at-secret-value"), for: key)
        }
        let reopened = TokenCache(store: try SQLiteTokenCacheStore(path: path), key: encryption, clock: clock)
        #expect(try await reopened.tokens(for: key)?.accessToken == "at-secret-value")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        for suffix in ["", "-wal"] {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: path + suffix))) ?? Data()
            #expect(!String(decoding: bytes, as: UTF8.self).contains("at-secret-value"), "\(suffix)")
        }
    }

    @Test("a row swapped between apps in the file is reported unreadable, not returned")
    func swappedRows() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteTokenCacheStore(path: path)
        let cache = TokenCache(store: store, key: .generate(), clock: clock)
        let attacker = TokenCacheKey(application: "com.evil", issuer: key.issuer, clientID: key.clientID)
        try await cache.store(expiring(3600, access: "at-victim"), for: key)
        try await cache.store(expiring(3600, access: "at-evil"), for: attacker)
        let victimRow = try #require(try await store.row(for: key.canonical))
        try await store.overwriteSealed(key: attacker.canonical, with: victimRow.sealed)
        let fresh = TokenCache(store: store, key: .generate(), clock: clock)
        #expect(try await fresh.entries(application: "com.evil").unreadable == [attacker.canonical])
    }

    @Test("two stores on one file (as two processes): concurrent refreshes spend the refresh token once")
    func twoConnectionsRefreshOnce() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let encryption = CacheEncryptionKey.generate()
        let first = TokenCache(store: try SQLiteTokenCacheStore(path: path), key: encryption, clock: clock)
        let second = TokenCache(store: try SQLiteTokenCacheStore(path: path), key: encryption, clock: clock)
        let outcome = try await TwoStoreRefreshRace.run(first: first, second: second, key: key, now: clock.now)
        #expect(outcome.refreshTokensSpent.allSatisfy { $0 == "rt-1" })
        #expect(outcome.refreshCalls == 1)
        #expect(outcome.accessTokens == ["at-1", "at-1"])
    }

    @Test("one-time entries are shared between connections and taken once")
    func oneTimeAcrossConnections() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let encryption = CacheEncryptionKey.generate()
        let first = TokenCache(store: try SQLiteTokenCacheStore(path: path), key: encryption, clock: clock)
        let second = TokenCache(store: try SQLiteTokenCacheStore(path: path), key: encryption, clock: clock)
        #expect(try await first.putOneTime([7], namespace: "oidc-login", id: "s", lifetime: 60))
        #expect(try await !second.putOneTime([8], namespace: "oidc-login", id: "s", lifetime: 60))
        #expect(try await second.takeOneTime(namespace: "oidc-login", id: "s") == [7])
        #expect(try await first.takeOneTime(namespace: "oidc-login", id: "s") == nil)
        let replay = TokenCacheReplayGuard(cache: first)
        #expect(try await replay.recordFirstUse(assertionID: "_a", issuer: "i", expiry: clock.now + 60))
        #expect(
            try await !TokenCacheReplayGuard(cache: second).recordFirstUse(
                assertionID: "_a", issuer: "i", expiry: clock.now + 60))
    }

    @Test("assertion IDs of one IdP stay apart: two distinct IDs are accepted, a replay is refused")
    func replayGuardKeepsIDsApart() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let encryption = CacheEncryptionKey.generate()
        let first = TokenCacheReplayGuard(
            cache: TokenCache(store: try SQLiteTokenCacheStore(path: path), key: encryption, clock: clock))
        let second = TokenCacheReplayGuard(
            cache: TokenCache(store: try SQLiteTokenCacheStore(path: path), key: encryption, clock: clock))
        #expect(
            try await TwoStoreReplayCheck.run(first: first, second: second, now: clock.now) == [
                true, true, false, true,
            ])
    }

    @Test("text is bound with its full length: keys that differ only after a NUL are two keys")
    func textKeepsItsLength() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteTokenCacheStore(path: path)
        let expiry = clock.now + 300
        #expect(
            try await store.insertOnce(namespace: "n", id: "a\u{0}b", value: [1], expiresAt: expiry, now: clock.now))
        #expect(
            try await store.insertOnce(namespace: "n", id: "a\u{0}c", value: [2], expiresAt: expiry, now: clock.now))
        #expect(try await store.takeOnce(namespace: "n", id: "a\u{0}c", now: clock.now) == [2])
        #expect(try await store.takeOnce(namespace: "n", id: "a", now: clock.now) == nil)
        let cache = TokenCache(store: store, key: .generate(), clock: clock)
        let keyWithNUL = TokenCacheKey(application: "app\u{0}x", issuer: "https://idp.example.com", clientID: "mail")
        try await cache.store(expiring(3600, access: "at-nul"), for: keyWithNUL)
        #expect(try await cache.entries(application: "app\u{0}x").entries.count == 1)
        #expect(try await cache.entries(application: "app").entries.isEmpty)
    }

    @Test("an unwritable location is store_unavailable")
    func unavailable() {
        #expect(throws: TokenCacheError(.storeUnavailable, "")) {
            try SQLiteTokenCacheStore(path: "/nonexistent-dir-\(UUID())/cache.sqlite")
        }
    }

    @Test("crash test: a writer killed with SIGKILL at random moments never loses an acknowledged write")
    func crashSafety() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("TokenCacheCrashWriter")
        try #require(FileManager.default.isExecutableFile(atPath: writer.path), "the writer is built with the tests")
        let encryption = CacheEncryptionKey.generate()
        var acknowledged: [Int] = []
        var next = 0
        for round in 0..<12 {
            let process = Process()
            process.executableURL = writer
            process.arguments = [path, encryption.base64, String(next)]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            try await Task.sleep(for: .milliseconds(Int.random(in: 80...400)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "round \(round)")
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            // Only complete lines were acknowledged (the last one may be cut by the kill).
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            let numbers = lines.compactMap { Int($0) }
            acknowledged += numbers
            next = (numbers.last ?? next - 1) + 2
        }
        #expect(acknowledged.count > 12, "the writer made progress")
        let cache = TokenCache(store: try SQLiteTokenCacheStore(path: path), key: encryption, clock: clock)
        let listing = try await cache.entries(application: "crash")
        #expect(listing.unreadable.isEmpty)
        let stored = Set(listing.entries.compactMap { Int($0.key.clientID.dropFirst()) })
        let missing = acknowledged.filter { !stored.contains($0) }
        #expect(missing.isEmpty, "acknowledged but lost: \(missing.prefix(10))")
    }
}
