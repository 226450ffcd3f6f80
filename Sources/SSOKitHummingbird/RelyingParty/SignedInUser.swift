import Foundation

/// The user a browser signed in as, as the service's session keeps it: who vouched (protocol and issuer), for whom
/// (subject), and what to show. No token or assertion is kept.
public struct SignedInUser: Codable, Sendable, Hashable {
    /// How the user signed in.
    public enum SignInProtocol: String, Codable, Sendable, Hashable {
        /// OpenID Connect: `issuer` is the OpenID Provider, `subject` the ID token's `sub`.
        case openIDConnect = "oidc"
        /// SAML 2.0: `issuer` is the IdP's entity ID, `subject` the assertion's NameID.
        case saml
    }

    /// How the user signed in.
    public var signInProtocol: SignInProtocol
    /// The identity provider that vouched for the user.
    public var issuer: String
    /// The user's identifier at that provider.
    public var subject: String
    /// A name to show: `name` (OIDC) or `displayName` (SAML), else the subject.
    public var displayName: String
    /// The e-mail address the provider gave, if any.
    public var email: String?
    /// When the sign-in completed.
    public var signedInAt: Date

    /// Creates a user.
    public init(
        signInProtocol: SignInProtocol, issuer: String, subject: String, displayName: String, email: String?,
        signedInAt: Date
    ) {
        self.signInProtocol = signInProtocol
        self.issuer = issuer
        self.subject = subject
        self.displayName = displayName
        self.email = email
        self.signedInAt = signedInAt
    }
}
