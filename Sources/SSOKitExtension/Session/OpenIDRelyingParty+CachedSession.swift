import SSOKitOIDC
import SSOKitTokenCache

extension OpenIDRelyingParty {
    /// Refreshes a cached session: the refresh policy shared by `ssokit oidc refresh`, the adapter and any
    /// embedding service. Use it as the `refresh` function of ``TokenCache/validTokens(for:refresh:)`` or
    /// ``TokenCache/refreshedTokens(for:refresh:)``, which run it inside the store's exclusive update.
    ///
    /// The refresh token is spent once; a rotated one replaces it, and when the provider sends none the old one is
    /// kept. A new ID token must keep the previous `iss`, `sub` and `aud` (OIDC Core §12.2); without one, the
    /// previous ID token is kept. The scopes stay unless the provider states new ones.
    ///
    /// Throws `entry_unreadable` for an entry without a readable ID token, and the provider's errors unchanged.
    public func refreshedEntry(_ current: CachedTokens) async throws -> CachedTokens {
        let session = try OIDCSession(cached: current)
        let login = try await refresh(session.tokens, previousClaims: session.claims)
        return OIDCSession(login: login).cachedTokens(scopes: current.scopes, previousIDToken: current.idToken)
    }
}
