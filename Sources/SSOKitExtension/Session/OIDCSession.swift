import Foundation
import SSOKitOIDC
import SSOKitStore
import SSOKitTokenCache

/// An OpenID Connect session: the tokens and the verified ID-token claims, and how it is kept in the token cache.
///
/// In the cache a session is a `CachedTokens` entry. Its claims are read back from the stored ID token
/// (`IDTokenClaims.init(previouslyVerified:)`), which was verified at login and stays sealed with AES-GCM, so it
/// cannot have been altered since.
public struct OIDCSession: Sendable {
    /// The tokens.
    public var tokens: TokenSet
    /// The ID token's verified claims.
    public var claims: IDTokenClaims

    /// Creates a session.
    public init(tokens: TokenSet, claims: IDTokenClaims) {
        self.tokens = tokens
        self.claims = claims
    }

    /// The session a login or refresh produced.
    public init(login: OpenIDLogin) {
        self.init(tokens: login.tokens, claims: login.claims)
    }

    /// The session of a cache entry; `entry_unreadable` when it holds no access token or no readable ID token.
    public init(cached: CachedTokens) throws(TokenCacheError) {
        guard let accessToken = cached.accessToken, let idToken = cached.idToken,
            let claims = try? IDTokenClaims(previouslyVerified: idToken)
        else { throw TokenCacheError(.entryUnreadable, "the cached session has no usable ID token") }
        tokens = TokenSet(
            accessToken: accessToken, tokenType: cached.tokenType ?? "Bearer",
            accessTokenExpiresAt: cached.accessTokenExpiresAt, refreshToken: cached.refreshToken, idToken: idToken,
            scope: cached.scopes.isEmpty ? nil : cached.scopes.joined(separator: " "))
        self.claims = claims
    }

    /// The cache entry. The granted scopes are the token response's, else `scopes`; a refresh response without an
    /// ID token keeps `previousIDToken`.
    public func cachedTokens(scopes: [String], previousIDToken: String? = nil) -> CachedTokens {
        CachedTokens(
            accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
            idToken: tokens.idToken ?? previousIDToken, tokenType: tokens.tokenType,
            accessTokenExpiresAt: tokens.accessTokenExpiresAt, idTokenExpiresAt: claims.expiresAt.date,
            scopes: tokens.scope.map { $0.split(separator: " ").map(String.init) } ?? scopes)
    }
}
