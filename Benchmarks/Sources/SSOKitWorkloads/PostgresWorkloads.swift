import Foundation
import SSOKitPostgres
import SSOKitTokenCache

/// The token cache over PostgreSQL (`SSOKIT_BENCH_POSTGRES_URL`), one call at a time: a memory hit, durable puts
/// (one committed transaction each) and cold gets (a fresh cache each time, so the row is read from the server and
/// decrypted) through `TokenCache`, and the same on the raw store. The rows written (application `ssokit-bench`)
/// are removed by the teardown.
enum PostgresWorkloads {
    /// The server's URL, or nil: then these workloads are skipped.
    static var url: String? {
        ProcessInfo.processInfo.environment["SSOKIT_BENCH_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static var all: [Workload] {
        [
            workload("cache-hit-memory") { setup in
                { _ = try await setup.cache.validTokens(for: setup.key) { $0 } }
            },
            workload("durable-put") { setup in
                { try await setup.cache.store(CachedTokens.benchmark, for: setup.nextPutKey()) }
            },
            workload("cold-get") { setup in
                {
                    guard try await TokenCache(store: setup.store, key: setup.encryption).tokens(for: setup.key) != nil
                    else { throw WorkloadFailure("a miss") }
                }
            },
            workload("raw-store-durable-put") { setup in
                let row = try await setup.store.row(for: setup.key.canonical)
                return { _ = try await setup.store.update(key: setup.nextPutKey().canonical) { _ in row } }
            },
            workload("raw-store-get") { setup in
                { _ = try await setup.store.row(for: setup.key.canonical) }
            },
        ]
    }

    static func workload(
        _ name: String, _ operation: @escaping @Sendable (PostgresSetup) async throws -> () async throws -> Void
    ) -> Workload {
        Workload("PostgresTokenCache", name, needsPostgres: true) {
            guard let url else { throw WorkloadFailure("SSOKIT_BENCH_POSTGRES_URL is not set") }
            let setup = try await PostgresSetup(url: url)
            return Workload.Operation.async(try await operation(setup)).withTeardown { await setup.removeRows() }
        }
    }
}

/// A connected store, a cache over it holding ``CachedTokens/benchmark``, and 500 keys to write in turn.
final class PostgresSetup: Sendable {
    let store: PostgresTokenCacheStore
    let encryption = CacheEncryptionKey.generate()
    let cache: TokenCache
    let key = TokenCacheKey(
        application: "ssokit-bench", issuer: "https://idp.example.com", clientID: "c", scopes: ["openid"])
    let putKeys = (0..<500).map {
        TokenCacheKey(application: "ssokit-bench", issuer: "https://idp.example.com", clientID: "p\($0)")
    }
    private let counter = Counter()

    init(url: String) async throws {
        store = try await PostgresTokenCacheStore.connect(url: url)
        cache = TokenCache(store: store, key: encryption)
        try await cache.store(CachedTokens.benchmark, for: key)
    }

    /// The next of the 500 keys.
    func nextPutKey() -> TokenCacheKey { putKeys[counter.next() % putKeys.count] }

    /// Removes every row written and closes the connections.
    func removeRows() async {
        for put in putKeys { try? await cache.remove(put) }
        try? await cache.remove(key)
        await store.shutdown()
    }
}
