import Foundation

/// What a token endpoint issued: access token, and when present refresh and ID tokens.
///
/// Its `description` never shows a token value.
public struct TokenSet: Sendable, CustomStringConvertible {
    /// The access token.
    public var accessToken: String
    /// The token type, normalised to `Bearer`.
    public var tokenType: String
    /// When the access token expires, from `expires_in`; `nil` when the provider did not say.
    public var accessTokenExpiresAt: Date?
    /// The refresh token, when issued (or kept from before a refresh that issued none).
    public var refreshToken: String?
    /// The ID token, when issued.
    public var idToken: String?
    /// The granted scope, when the provider stated it.
    public var scope: String?

    /// Creates a token set.
    public init(
        accessToken: String, tokenType: String = "Bearer", accessTokenExpiresAt: Date? = nil,
        refreshToken: String? = nil, idToken: String? = nil, scope: String? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.scope = scope
    }

    /// A summary without token values.
    public var description: String {
        "TokenSet(type: \(tokenType), expiresAt: \(accessTokenExpiresAt.map { "\($0)" } ?? "nil"), "
            + "refreshToken: \(refreshToken == nil ? "no" : "yes"), idToken: \(idToken == nil ? "no" : "yes"))"
    }
}
