/// The built-in registrations used when no `clients.json` is given: one public OIDC client and one SAML service
/// provider, both for apps on 127.0.0.1 (any port).
public enum DevIdPDemo {
    /// The demo client's ID: a public client (no secret, PKCE), as a native app or SSO extension is (RFC 8252).
    public static let clientID = "ssokit-demo"
    /// Its redirect URI: any port of 127.0.0.1 (RFC 8252 §7.3), path `/callback`.
    public static let redirectURI = "http://127.0.0.1/callback"
    /// Where RP-Initiated Logout may return to: the root of any port of 127.0.0.1.
    public static let postLogoutRedirectURI = "http://127.0.0.1/"
    /// The demo SP's entity ID.
    public static let serviceProviderEntityID = "urn:ssokit:demo-sp"
    /// Its ACS URL: any port of 127.0.0.1, path `/saml/acs`; AuthnRequests must name the actual URL.
    public static let assertionConsumerServiceURL = "http://127.0.0.1/saml/acs"

    /// The demo OIDC client.
    public static var client: OIDCClientRegistration {
        OIDCClientRegistration(
            clientID: clientID, authentication: .none, redirectURIs: [redirectURI],
            postLogoutRedirectURIs: [postLogoutRedirectURI])
    }

    /// The demo SAML SP: unsigned requests accepted, Response and Assertion signed, nothing encrypted.
    public static var serviceProvider: SAMLServiceProviderRegistration {
        SAMLServiceProviderRegistration(
            entityID: serviceProviderEntityID, assertionConsumerServiceURLs: [assertionConsumerServiceURL])
    }
}
