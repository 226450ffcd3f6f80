import BenchmarkSupport
import Foundation
import SSOKitCore
import SSOKitStore
import SSOKitTokenCache
import Synchronization

/// Token-cache figures: cache hits through the in-memory and the SQLite store, durable SQLite writes, cold SQLite
/// reads (a fresh cache each time, so the row is read and decrypted), and single-flight with 1,000 callers.
///
/// Run: `swift build -c release --product TokenCacheBenchmark && taskset -c 0 .build/release/TokenCacheBenchmark 1`
@main
struct TokenCacheBenchmark {
    static func main() async throws {
        let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 1.0
        try await Task.detached { try await run(seconds: seconds) }.value
    }

    static func line(_ name: String, _ statistics: BenchmarkStatistics) {
        print("  \(name.padding(toLength: 46, withPad: " ", startingAt: 0)) \(statistics.summary)")
    }

    static func run(seconds: Double) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-bench-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cache.sqlite").path
        let encryption = CacheEncryptionKey.generate()
        let key = TokenCacheKey(
            application: "bench", issuer: "https://idp.example.com", clientID: "c", scopes: ["openid"])
        let tokens = CachedTokens(
            accessToken: String(repeating: "a", count: 900), refreshToken: String(repeating: "r", count: 60),
            idToken: String(repeating: "i", count: 800), tokenType: "Bearer",
            accessTokenExpiresAt: Date().addingTimeInterval(86_400))
        let noRefresh: TokenCache.Refresh = { $0 }
        print("Token cache (\(seconds) s per measurement; tokens ~1.8 KB sealed with AES-GCM)")

        let memory = TokenCache(store: InMemoryTokenCacheStore(), key: encryption)
        try await memory.store(tokens, for: key)
        line(
            "in-memory store: validTokens hit",
            try await measure(seconds: seconds) {
                _ = try await memory.validTokens(for: key, refresh: noRefresh)
            })

        let sqliteStore = try SQLiteTokenCacheStore(path: path)
        let sqlite = TokenCache(store: sqliteStore, key: encryption)
        try await sqlite.store(tokens, for: key)
        line(
            "SQLite store: validTokens hit",
            try await measure(seconds: seconds) {
                _ = try await sqlite.validTokens(for: key, refresh: noRefresh)
            })
        var counter = 0
        line(
            "SQLite store: durable put (fsync per commit)",
            try await measure(seconds: seconds) {
                counter += 1
                let other = TokenCacheKey(
                    application: "bench", issuer: "https://idp.example.com", clientID: "p\(counter % 500)")
                try await sqlite.store(tokens, for: other)
            })
        line(
            "SQLite store: cold get (read + decrypt)",
            try await measure(seconds: seconds) {
                _ = try await TokenCache(store: sqliteStore, key: encryption).tokens(for: key)
            })

        // Single-flight: 1,000 callers of an expired entry.
        let expired = CachedTokens(accessToken: "old", refreshToken: "rt", accessTokenExpiresAt: Date())
        let calls = RefreshCounter()
        let flightKey = TokenCacheKey(application: "bench", issuer: "https://idp.example.com", clientID: "flight")
        try await sqlite.store(expired, for: flightKey)
        let clock = ContinuousClock()
        let started = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<1000 {
                group.addTask {
                    _ = try await sqlite.validTokens(for: flightKey) { _ in
                        calls.increment()
                        try await Task.sleep(for: .milliseconds(20))  // a token endpoint round trip
                        return tokens
                    }
                }
            }
            try await group.waitForAll()
        }
        let elapsed = started.duration(to: clock.now)
        print(
            "  single-flight, 1,000 concurrent callers (20 ms refresh): \(elapsed), token-endpoint calls: "
                + "\(calls.value)")
    }
}

/// Counts refresh calls across tasks.
final class RefreshCounter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
