import SSOKitStore

/// The token cache as one calling app sees it: every key it builds carries that app's identifier, so the app can
/// neither read, list nor delete another app's entries.
public struct ApplicationTokenCache: Sendable {
    let cache: TokenCache
    /// The app this view is bound to.
    public let application: String

    /// The key of this app's entry for (`issuer`, `clientID`, `scopes`).
    public func key(issuer: String, clientID: String, scopes: some Sequence<String> = []) -> TokenCacheKey {
        TokenCacheKey(application: application, issuer: issuer, clientID: clientID, scopes: scopes)
    }

    /// Stores tokens after a login.
    public func store(_ tokens: CachedTokens, issuer: String, clientID: String, scopes: [String] = [])
        async throws(TokenCacheError)
    {
        try await cache.store(tokens, for: key(issuer: issuer, clientID: clientID, scopes: scopes))
    }

    /// Valid tokens, refreshed single-flight when needed.
    public func validTokens(
        issuer: String, clientID: String, scopes: [String] = [], refresh: @escaping TokenCache.Refresh
    ) async throws -> CachedTokens {
        try await cache.validTokens(for: key(issuer: issuer, clientID: clientID, scopes: scopes), refresh: refresh)
    }

    /// Removes this app's entry.
    public func remove(issuer: String, clientID: String, scopes: [String] = []) async throws(TokenCacheError) {
        try await cache.remove(key(issuer: issuer, clientID: clientID, scopes: scopes))
    }

    /// This app's entries.
    public func entries() async throws(TokenCacheError) -> TokenCacheListing {
        try await cache.entries(application: application)
    }
}
