import Foundation
import SSOKitCore
import SSOKitStore
import SSOKitTokenCache
import Synchronization

/// The token cache: hits through the in-memory store (the floor of profile matching and of the adapter) and the
/// SQLite store, durable SQLite writes (fsync per commit), cold SQLite reads (a fresh cache each time, so the row
/// is read and decrypted), and single-flight with 1,000 callers of an expired entry (wall time only).
enum TokenCacheWorkloads {
    static var all: [Workload] {
        [
            memoryHit(suite: "TokenCache"),
            Workload("TokenCache", "sqlite-hit") {
                let sqlite = try await SQLiteSetup()
                let (cache, key) = (sqlite.cache, sqlite.key)
                return .async { _ = try await cache.validTokens(for: key) { $0 } }
            },
            Workload("TokenCache", "sqlite-durable-put", gated: false) {
                let sqlite = try await SQLiteSetup()
                let keys = (0..<500).map {
                    TokenCacheKey(application: "bench", issuer: "https://idp.example.com", clientID: "p\($0)")
                }
                let counter = Counter()
                return .async { try await sqlite.cache.store(CachedTokens.benchmark, for: keys[counter.next() % 500]) }
            },
            Workload("TokenCache", "sqlite-cold-get") {
                let sqlite = try await SQLiteSetup()
                return .async {
                    guard
                        try await TokenCache(store: sqlite.store, key: sqlite.encryption).tokens(for: sqlite.key) != nil
                    else { throw WorkloadFailure("a miss") }
                }
            },
            Workload("TokenCache", "single-flight-1000-callers", gated: false, slow: true) {
                let sqlite = try await SQLiteSetup()
                let flightKey = TokenCacheKey(
                    application: "bench", issuer: "https://idp.example.com", clientID: "flight")
                let calls = Counter()
                return .async {
                    let expired = CachedTokens(accessToken: "old", refreshToken: "rt", accessTokenExpiresAt: Date())
                    try await sqlite.cache.store(expired, for: flightKey)
                    let before = calls.value
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for _ in 0..<1000 {
                            group.addTask {
                                _ = try await sqlite.cache.validTokens(for: flightKey) { _ in
                                    _ = calls.next()
                                    try await Task.sleep(for: .milliseconds(20))  // a token endpoint round trip
                                    return CachedTokens.benchmark
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                    guard calls.value - before == 1 else {
                        throw WorkloadFailure("\(calls.value - before) token-endpoint calls, not 1")
                    }
                }
            },
        ]
    }

    /// An in-memory `TokenCache.validTokens` hit: the floor the adapter and profile matching are measured against,
    /// in their suites too (gated once, in TokenCache's).
    static func memoryHit(suite: String) -> Workload {
        Workload(suite, "floor-memory-cache-hit", gated: suite == "TokenCache") {
            let cache = TokenCache(store: InMemoryTokenCacheStore(), key: CacheEncryptionKey.generate())
            let key = TokenCacheKey.benchmark
            try await cache.store(CachedTokens.benchmark, for: key)
            return .async { _ = try await cache.validTokens(for: key) { $0 } }
        }
    }
}

extension TokenCacheKey {
    /// The key the cache workloads hit.
    static let benchmark = TokenCacheKey(
        application: "bench", issuer: "https://idp.example.com", clientID: "c", scopes: ["openid"])
}

extension CachedTokens {
    /// ~1.8 KB of tokens (sealed with AES-GCM in the cache), valid for a day.
    static var benchmark: CachedTokens {
        CachedTokens(
            accessToken: String(repeating: "a", count: 900), refreshToken: String(repeating: "r", count: 60),
            idToken: String(repeating: "i", count: 800), tokenType: "Bearer",
            accessTokenExpiresAt: Date().addingTimeInterval(86_400))
    }
}

/// A SQLite token cache in a fresh temporary directory, holding ``CachedTokens/benchmark`` under
/// ``TokenCacheKey/benchmark``. The directory is removed when the last operation that uses it is gone.
final class SQLiteSetup: Sendable {
    let directory: URL
    let store: SQLiteTokenCacheStore
    let encryption: CacheEncryptionKey
    let cache: TokenCache
    let key = TokenCacheKey.benchmark

    init() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-bench-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteTokenCacheStore(path: directory.appendingPathComponent("cache.sqlite").path)
        encryption = CacheEncryptionKey.generate()
        cache = TokenCache(store: store, key: encryption)
        try await cache.store(CachedTokens.benchmark, for: key)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
}

/// A counter shared by the tasks of one workload.
final class Counter: Sendable {
    private let count = Mutex(0)

    /// Adds one and returns the new value.
    func next() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }

    /// The current value.
    var value: Int { count.withLock { $0 } }
}
