import Crypto
import Foundation
import SSOKitCore
import SSOKitExtension
import SSOKitPostgres
import SSOKitRights
import SSOKitStore
import SSOKitTokenCache

/// The opened store: the token cache and the right store over one backend, with the cache key resolved.
///
/// The cache key never lives in the cache folder: it is `$XDG_CONFIG_HOME/ssokit/cache.key` (created 0600 on
/// first use) or, with `--protect`, the secret of the persisted right `ssokit.cache-key`, readable only after its
/// passphrase is entered. The right store's device key is `$XDG_CONFIG_HOME/ssokit/device.key`.
struct CacheContext {
    let cache: TokenCache
    let rights: RightStore
    /// The cache key, which also seals what else `ssokit` keeps at rest (the proxy's certificate authority key).
    let key: CacheEncryptionKey
    private let backend: StoreBackend

    /// The right whose secret is the cache key under `--protect`.
    static let cacheKeyRight = ProtectedCacheKey.defaultRightIdentifier

    /// Opens the store, runs `body`, and closes the store whatever happens; the cache judges expiry by `clock`.
    static func with<T>(
        _ options: StoreOptions, clock: any SSOKitClock = SystemClock(), _ body: (CacheContext) async throws -> T
    ) async throws -> T {
        try await withBackend(options) { backend, rights in
            let key =
                options.protect
                ? try await protectedKey(rights) : try CacheEncryptionKey(bytes: ConfigFiles.key(named: "cache.key"))
            return try await body(
                CacheContext(
                    cache: TokenCache(store: backend.tokens, key: key, clock: clock), rights: rights, key: key,
                    backend: backend))
        }
    }

    /// The right store alone (for `ssokit rights`).
    static func withRights<T>(_ options: StoreOptions, _ body: (RightStore) async throws -> T) async throws -> T {
        try await withBackend(options) { _, rights in try await body(rights) }
    }

    private static func withBackend<T>(
        _ options: StoreOptions, _ body: (StoreBackend, RightStore) async throws -> T
    ) async throws -> T {
        let backend = try await StoreBackend.open(options)
        do {
            let rights = try RightStore(
                records: backend.rights, deviceKey: SymmetricKey(data: try ConfigFiles.key(named: "device.key")))
            let result = try await body(backend, rights)
            await backend.close()
            return result
        } catch {
            await backend.close()
            throw error
        }
    }

    /// The cache key kept as the secret of the right `ssokit.cache-key`, created with a new passphrase on first use.
    private static func protectedKey(_ rights: RightStore) async throws -> CacheEncryptionKey {
        let authenticator = TerminalAuthenticator()
        return try await ProtectedCacheKey.unlock(
            rights: rights, identifier: cacheKeyRight, authenticator: authenticator,
            newPassphrase: { try authenticator.newPassphrase(label: "the token cache") })
    }
}

/// One opened backend, seen both as a token-cache store and as a right store.
struct StoreBackend {
    let tokens: any TokenCacheStore
    let rights: any RightRecordStore
    let close: @Sendable () async -> Void

    static func open(_ options: StoreOptions) async throws -> StoreBackend {
        if let url = try options.postgresURL() {
            let store = try await PostgresTokenCacheStore.connect(url: url)
            return StoreBackend(tokens: store, rights: store, close: { await store.shutdown() })
        }
        let folder = options.cacheDirectory
        try SecureFolder.prepare(folder)
        let store = try await SQLiteTokenCacheStore.open(path: folder.appendingPathComponent("cache.sqlite").path)
        return StoreBackend(tokens: store, rights: store, close: {})
    }
}
