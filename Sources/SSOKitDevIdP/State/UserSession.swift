import Foundation

/// A browser's signed-in session at the IdP, shared by OIDC and SAML.
struct UserSession: Sendable {
    /// The public session ID: the ID token's `sid` and the assertion's SessionIndex (not the cookie, which is secret).
    let sid: String
    /// Who signed in.
    let username: String
    /// When the password was checked (`auth_time`, AuthnInstant).
    let authTime: Date
    /// When the session ends.
    let expiresAt: Date
}
