import Foundation
import HTTPTypes
import SSOKitCore
import Synchronization

/// An identity provider inside the test process, reached through ``transport``: an OpenID Provider with a real
/// login page (a username and password form guarded by a CSRF cookie), an IdP session cookie, authorization codes
/// bound to PKCE (S256), a token endpoint (code and refresh grants, `client_secret_basic`) and revocation; and a
/// SAML SSO endpoint that answers a logged-in browser with a page auto-posting a fixed Response.
///
/// Every route is under ``issuer`` (`https://idp.test` by default). The adapter's tests, its fixture runner and its
/// benchmark use it in place of a network IdP.
public final class InMemoryIdentityProvider: Sendable {
    /// What the SAML SSO endpoint answers a logged-in browser with: a page auto-posting `response` (base64) to
    /// `acs`.
    public struct SAMLPage: Sendable {
        /// The base64 SAMLResponse.
        public var response: String
        /// The ACS URL the page posts to.
        public var acs: String
        /// Creates the page.
        public init(response: String, acs: String) {
            self.response = response
            self.acs = acs
        }
    }

    let core: IdentityProviderCore
    /// The transport that reaches this IdP (and answers 404 to anything else).
    public let transport: InMemoryHTTPTransport

    /// Creates a provider. Lifetimes are in seconds.
    public init(
        issuer: String = "https://idp.test", clientID: String = "adapter-client",
        clientSecret: String = "adapter-secret",
        username: String = "alice", password: String = "wonderland", clock: any SSOKitClock = SystemClock(),
        accessTokenLifetime: TimeInterval = 3600, sessionLifetime: TimeInterval = 3600, samlPage: SAMLPage? = nil
    ) {
        let core = IdentityProviderCore(
            issuer: issuer, clientID: clientID, clientSecret: clientSecret, username: username, password: password,
            clock: clock, signer: TestTokenSigner.p256(keyID: "idp-test"), samlPage: samlPage,
            state: ProviderState(accessTokenLifetime: accessTokenLifetime, sessionLifetime: sessionLifetime))
        self.core = core
        transport = InMemoryHTTPTransport { request in core.handle(request) }
    }

    /// The issuer and base URL.
    public var issuer: String { core.issuer }
    /// The one registered client.
    public var clientID: String { core.clientID }
    /// Its secret.
    public var clientSecret: String { core.clientSecret }
    /// The one user's name (also the ID token's `sub`).
    public var username: String { core.username }
    /// The user's password.
    public var password: String { core.password }

    /// Ends every IdP session (as an IdP-side logout or expiry would): the next authorization shows the login page.
    public func endSessions() {
        core.state.withLock { $0.sessions.removeAll() }
    }

    /// Revokes every refresh token (a refresh grant then gets `invalid_grant`).
    public func revokeRefreshTokens() {
        core.state.withLock { $0.refreshTokens.removeAll() }
    }

    /// How many times each path was requested.
    public var requestCounts: [String: Int] { core.state.withLock { $0.requestCounts } }

    /// How many access tokens were issued.
    public var accessTokensIssued: Int { core.state.withLock { $0.counter } }

    /// An ID token for the user, signed by this IdP, issued now (for tests that fill the cache directly).
    public func idToken(audience: String? = nil, nonce: String? = nil) throws -> String {
        try core.idToken(nonce: nonce, audience: audience)
    }
}
