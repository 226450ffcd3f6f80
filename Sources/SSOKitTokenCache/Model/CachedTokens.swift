import Foundation

/// What the cache holds for one key: OIDC tokens with their expiries, a SAML session, an identity provider's
/// browser session, or an adapter's list of the apps that hold entries for one IdP and client.
public struct CachedTokens: Sendable, Hashable, Codable {
    /// The access token.
    public var accessToken: String?
    /// The refresh token.
    public var refreshToken: String?
    /// The ID token (compact JWS).
    public var idToken: String?
    /// The token type, normally `Bearer`.
    public var tokenType: String?
    /// When the access token expires.
    public var accessTokenExpiresAt: Date?
    /// When the refresh token expires, if the provider says.
    public var refreshTokenExpiresAt: Date?
    /// When the ID token expires (`exp`).
    public var idTokenExpiresAt: Date?
    /// The scopes granted.
    public var scopes: [String]
    /// For SAML logins: the session the assertion established.
    public var samlSession: SAMLSessionRecord?
    /// For an identity provider's browser session (kept by the redirect-extension adapter, for every app): its
    /// cookies.
    public var idpSession: IdPSessionRecord?
    /// For an adapter's registry entry: the calling apps that have stored entries for one IdP and client, so that
    /// all of them can be removed when the configuration is.
    public var applications: [String]?

    /// Creates an entry.
    public init(
        accessToken: String? = nil, refreshToken: String? = nil, idToken: String? = nil, tokenType: String? = nil,
        accessTokenExpiresAt: Date? = nil, refreshTokenExpiresAt: Date? = nil, idTokenExpiresAt: Date? = nil,
        scopes: [String] = [], samlSession: SAMLSessionRecord? = nil, idpSession: IdPSessionRecord? = nil,
        applications: [String]? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.tokenType = tokenType
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
        self.idTokenExpiresAt = idTokenExpiresAt
        self.scopes = scopes
        self.samlSession = samlSession
        self.idpSession = idpSession
        self.applications = applications
    }

    /// Whether what the entry grants (the access token, the SAML session or the IdP session) stays valid until
    /// `date`.
    public func isValid(until date: Date) -> Bool {
        if let samlSession { return samlSession.notOnOrAfter.map { $0 > date } ?? true }
        if let idpSession { return idpSession.notOnOrAfter > date && !idpSession.cookies.isEmpty }
        if applications != nil { return true }
        guard accessToken != nil else { return false }
        return accessTokenExpiresAt.map { $0 > date } ?? true
    }

    /// The latest instant anything in the entry is usable; nil when something never expires. Purging removes
    /// entries whose expiry has passed.
    public var expiry: Date? {
        if let samlSession { return samlSession.notOnOrAfter }
        if let idpSession { return idpSession.notOnOrAfter }
        if applications != nil { return nil }
        if refreshToken != nil { return refreshTokenExpiresAt }
        return accessTokenExpiresAt
    }
}

/// A SAML login's session, as the verified assertion described it.
public struct SAMLSessionRecord: Sendable, Hashable, Codable {
    /// The NameID.
    public var nameID: String
    /// The NameID format.
    public var nameIDFormat: String?
    /// The IdP session index (for single logout).
    public var sessionIndex: String?
    /// When the session ends (SessionNotOnOrAfter, or the SP's own limit).
    public var notOnOrAfter: Date?
    /// Attributes by name.
    public var attributes: [String: [String]]
    /// The assertion's ID, when recorded.
    public var assertionID: String?

    /// Creates a record.
    public init(
        nameID: String, nameIDFormat: String? = nil, sessionIndex: String? = nil, notOnOrAfter: Date? = nil,
        attributes: [String: [String]] = [:], assertionID: String? = nil
    ) {
        self.nameID = nameID
        self.nameIDFormat = nameIDFormat
        self.sessionIndex = sessionIndex
        self.notOnOrAfter = notOnOrAfter
        self.attributes = attributes
        self.assertionID = assertionID
    }
}
