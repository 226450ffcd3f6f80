import Foundation

/// What the server keeps about one sign-in in progress, from the sign-in route to the callback or ACS: the browser
/// it belongs to (the digest of its login cookie), when it expires, where to go afterwards, and the protocol's
/// secrets (OIDC: nonce and PKCE verifier; SAML: the AuthnRequest's ID). Kept in the service's persist driver.
struct LoginState: Codable, Sendable {
    /// The SHA-256 digest of the login cookie of the browser that started the sign-in.
    var browserDigest: String
    /// After this instant the sign-in is refused as expired.
    var expiresAt: Date
    /// The local path to return to once signed in.
    var returnPath: String
    /// The OpenID Connect half, for an OIDC sign-in.
    var openIDConnect: OpenIDConnect?
    /// The SAML half, for a SAML sign-in.
    var saml: SAML?

    /// What the callback needs to rebuild the authorization request.
    struct OpenIDConnect: Codable, Sendable {
        var authorizationEndpoint: URL
        var redirectURI: String
        var scopes: [String]
        var state: String
        var nonce: String
        var codeVerifier: String
        var maxAge: Int64?
    }

    /// What the ACS needs to check the Response.
    struct SAML: Codable, Sendable {
        var requestID: String
    }
}
