import ArgumentParser
import SSOKitStore
import SSOKitTokenCache

/// The store `saml verify --cache DIR | --postgres URL` records accepted assertion IDs in: the same backends, and
/// the same folder and database layout, as the token cache's (no cache key is needed: nothing is sealed).
enum ReplayStore {
    /// Opens the store that `cache` or `postgres` names (none when both are nil), runs `body`, and closes it.
    static func with<T>(
        cache: String?, postgres: String?, _ body: (_ store: (any TokenCacheStore)?) async throws -> T
    ) async throws -> T {
        let arguments = cache.map { ["--cache", $0] } ?? postgres.map { ["--postgres", $0] }
        guard let arguments else { return try await body(nil) }
        let backend = try await StoreBackend.open(try StoreOptions.parse(arguments))
        do {
            let result = try await body(backend.tokens)
            await backend.close()
            return result
        } catch {
            await backend.close()
            throw error
        }
    }
}
