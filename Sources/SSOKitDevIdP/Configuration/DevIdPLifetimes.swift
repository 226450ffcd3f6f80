import Foundation

/// How long each thing the IdP hands out stays valid, in seconds.
public struct DevIdPLifetimes: Sendable, Hashable {
    /// An authorization code (default 60; RFC 6749 §4.1.2 says at most 10 minutes).
    public var authorizationCode: TimeInterval
    /// An access token and an ID token (default 3600).
    public var accessToken: TimeInterval
    /// A refresh token family, from the code exchange on (default 86400); each rotation keeps this end.
    public var refreshToken: TimeInterval
    /// A browser session at the IdP (default 8 hours).
    public var session: TimeInterval
    /// A pending login form, and an end-session confirmation (default 600).
    public var pendingLogin: TimeInterval
    /// A SAML assertion: Conditions and SubjectConfirmationData NotOnOrAfter (default 300).
    public var assertion: TimeInterval
    /// How old (by IssueInstant) a SAML request may be (default 600); one from the future is allowed 60 s.
    public var samlRequestAge: TimeInterval

    /// Creates lifetimes; the defaults suit development and demos.
    public init(
        authorizationCode: TimeInterval = 60, accessToken: TimeInterval = 3600, refreshToken: TimeInterval = 86_400,
        session: TimeInterval = 8 * 3600, pendingLogin: TimeInterval = 600, assertion: TimeInterval = 300,
        samlRequestAge: TimeInterval = 600
    ) {
        self.authorizationCode = authorizationCode
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.session = session
        self.pendingLogin = pendingLogin
        self.assertion = assertion
        self.samlRequestAge = samlRequestAge
    }
}
