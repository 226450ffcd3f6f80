import Foundation
import SSOKitCore
import SSOKitOIDC
import SSOKitTokenCache

/// A logged-in session as the CLI shows it: the tokens and the verified ID-token claims.
///
/// In the cache it is a ``CachedTokens`` entry; the claims are read back from the stored ID token, which was
/// verified at login and is sealed with AES-GCM at rest, so it cannot have been altered since.
struct StoredSession {
    var tokens: TokenSet
    var claims: [String: JSONValue]

    init(tokens: TokenSet, claims: [String: JSONValue]) {
        self.tokens = tokens
        self.claims = claims
    }

    /// The cache entry; a refresh response without an ID token keeps `previousIDToken`.
    func cached(scopes: [String], previousIDToken: String? = nil) -> CachedTokens {
        CachedTokens(
            accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
            idToken: tokens.idToken ?? previousIDToken, tokenType: tokens.tokenType,
            accessTokenExpiresAt: tokens.accessTokenExpiresAt,
            scopes: tokens.scope.map { $0.split(separator: " ").map(String.init) } ?? scopes)
    }

    /// The session of a cache entry; `entry_unreadable` when the entry holds no readable ID token.
    init(cached: CachedTokens) throws {
        guard let accessToken = cached.accessToken, let idToken = cached.idToken,
            let claims = Self.claims(ofVerifiedIDToken: idToken)
        else { throw CLIFailure(code: "entry_unreadable", message: "the cached session has no usable ID token") }
        tokens = TokenSet(
            accessToken: accessToken, tokenType: cached.tokenType ?? "Bearer",
            accessTokenExpiresAt: cached.accessTokenExpiresAt, refreshToken: cached.refreshToken, idToken: idToken,
            scope: cached.scopes.isEmpty ? nil : cached.scopes.joined(separator: " "))
        self.claims = claims
    }

    private static func claims(ofVerifiedIDToken token: String) -> [String: JSONValue]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])),
            let value = try? JSONParser().parse(payload)
        else { return nil }
        return value.objectValue
    }
}
