import BenchmarkSupport
import Foundation
import SSOKitPostgres
import SSOKitTokenCache

/// Token-cache figures over PostgreSQL: durable puts (one committed transaction each) and cold gets (a fresh cache
/// each time, so the row is read from the server and decrypted) through ``TokenCache``, the same through the raw
/// store, and a memory hit for comparison. The entries it writes (application `ssokit-bench`) are removed at the end.
///
/// Run: `swift build -c release --product PostgresTokenCacheBenchmark &&
/// .build/release/PostgresTokenCacheBenchmark postgres://user@127.0.0.1:5432/db [seconds]`
/// (or set `SSOKIT_BENCH_POSTGRES_URL`).
@main
struct PostgresTokenCacheBenchmark {
    static func main() async throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var url = ProcessInfo.processInfo.environment["SSOKIT_BENCH_POSTGRES_URL"]
        if let first = arguments.first, first.contains("://") {
            url = first
            arguments.removeFirst()
        }
        guard let url, !url.isEmpty else {
            FileHandle.standardError.write(
                Data(
                    "usage: PostgresTokenCacheBenchmark postgres://user@host:port/db [seconds] (or SSOKIT_BENCH_POSTGRES_URL)\n"
                        .utf8))
            exit(64)
        }
        let seconds = arguments.first.flatMap(Double.init) ?? 2.0
        try await Task.detached { try await run(url: url, seconds: seconds) }.value
    }

    static func line(_ name: String, _ statistics: BenchmarkStatistics) {
        print("  \(name.padding(toLength: 46, withPad: " ", startingAt: 0)) \(statistics.summary)")
    }

    static func run(url: String, seconds: Double) async throws {
        let store = try await PostgresTokenCacheStore.connect(url: url)
        let encryption = CacheEncryptionKey.generate()
        let key = TokenCacheKey(
            application: "ssokit-bench", issuer: "https://idp.example.com", clientID: "c", scopes: ["openid"])
        let tokens = CachedTokens(
            accessToken: String(repeating: "a", count: 900), refreshToken: String(repeating: "r", count: 60),
            idToken: String(repeating: "i", count: 800), tokenType: "Bearer",
            accessTokenExpiresAt: Date().addingTimeInterval(86_400))
        let noRefresh: TokenCache.Refresh = { $0 }
        let putKeys = (0..<500).map {
            TokenCacheKey(application: "ssokit-bench", issuer: "https://idp.example.com", clientID: "p\($0)")
        }
        print("PostgreSQL token cache (\(seconds) s per measurement; one call at a time; tokens ~1.8 KB sealed)")

        let cache = TokenCache(store: store, key: encryption)
        try await cache.store(tokens, for: key)
        line(
            "TokenCache: validTokens hit (memory)",
            try await measure(seconds: seconds) {
                _ = try await cache.validTokens(for: key, refresh: noRefresh)
            })
        var counter = 0
        line(
            "TokenCache: durable put (commit per call)",
            try await measure(seconds: seconds) {
                counter += 1
                try await cache.store(tokens, for: putKeys[counter % putKeys.count])
            })
        line(
            "TokenCache: cold get (read + decrypt)",
            try await measure(seconds: seconds) {
                _ = try await TokenCache(store: store, key: encryption).tokens(for: key)
            })

        let row = try await store.row(for: key.canonical)
        let rawKeys = putKeys.map(\.canonical)
        line(
            "raw store: durable put (update, commit)",
            try await measure(seconds: seconds) {
                counter += 1
                _ = try await store.update(key: rawKeys[counter % rawKeys.count]) { _ in row }
            })
        line(
            "raw store: get (row(for:))",
            try await measure(seconds: seconds) {
                _ = try await store.row(for: key.canonical)
            })

        for put in putKeys { try await cache.remove(put) }
        try await cache.remove(key)
        await store.shutdown()
    }
}
